import type { AreaId } from '../areas/registry.js'
import { CheckSkipped } from './failures.js'
import { AreaProbe } from './http-probe.js'
import type { InterfaceDocument } from './interface-document.js'
import type { FixtureName } from './types.js'

/** How to ask for each fixture, for the skip reasons. */
const FIXTURE_HINTS: Record<FixtureName, string> = {
  product: '--fixture product=<id of an Area B product>',
  resource: '--fixture resource=<id of an Area D resource>',
  token: '--fixture token=<id of an Area E token>',
  validator: '--fixture validator=0x<address of an active validator>',
  'signature-mode': '--fixture signature-mode=format|eip191|eip712',
  'chain-id': '--fixture chain-id=<the ledger chain id>',
  'jwt-secret': '--fixture jwt-secret=<the HS256 secret of Area D tokens> (or expired-token=<an expired token>)',
  'expired-token': '--fixture expired-token=<an expired Area D token>',
  login: '--fixture login=<username>:<password>',
}

/** What a run shares between its checks: where each area is, the document, fixtures, the prefix of what it creates. */
export interface RunSettings {
  bases: Partial<Record<AreaId, string>>
  document: InterfaceDocument
  fixtures: Partial<Record<FixtureName, string>>
  prefix: string
  readOnly: boolean
  timeoutMs: number
  headers: Record<string, string>
  /** Shared across checks, so every created name is unique within the run. */
  counter: { next: number }
  /** Descriptions of what was created and could not be removed. */
  leftBehind: string[]
}

/**
 * What a check works with: a probe per area, the interface document, the
 * fixtures, unique names with the run's prefix, and undo steps run when the
 * check ends (pass or fail), newest first.
 *
 * @example
 * const username = ctx.unique('user')   // 'mam-verify-k3x9q-user-7'
 * ctx.onCleanup('user mam-verify-k3x9q-user-7', () => deleteUser(id))
 */
export class CheckContext {
  readonly #settings: RunSettings
  readonly #probes = new Map<AreaId, AreaProbe>()
  readonly #cleanups: Array<{ what: string; undo: () => Promise<void> }> = []

  constructor(settings: RunSettings) {
    this.#settings = settings
  }

  get document(): InterfaceDocument {
    return this.#settings.document
  }

  get prefix(): string {
    return this.#settings.prefix
  }

  /** Whether the run knows where an area is. */
  has(area: AreaId): boolean {
    return this.#settings.bases[area] !== undefined
  }

  /** The area's probe; a check of an area without a base URL is skipped. */
  probe(area: AreaId): AreaProbe {
    let probe = this.#probes.get(area)
    if (!probe) {
      const base = this.#settings.bases[area]
      if (base === undefined) throw new CheckSkipped(`needs area ${area}: pass --target or --base ${area}=<url>`)
      probe = new AreaProbe(base, { timeoutMs: this.#settings.timeoutMs, headers: this.#settings.headers, readOnly: this.#settings.readOnly })
      this.#probes.set(area, probe)
    }
    return probe
  }

  /** A fixture's value; skips the check (naming the flag to pass) when it was not given. */
  fixture(name: FixtureName): string {
    const value = this.#settings.fixtures[name]
    if (value === undefined) throw new CheckSkipped(`needs ${FIXTURE_HINTS[name]}`)
    return value
  }

  optionalFixture(name: FixtureName): string | undefined {
    return this.#settings.fixtures[name]
  }

  /** A name no one else uses: the run's prefix, a label, a counter (`mam-verify-k3x9q-user-7`). */
  unique(label: string): string {
    return `${this.#settings.prefix}${label}-${++this.#settings.counter.next}`
  }

  /** Registers an undo step for something this check created. */
  onCleanup(what: string, undo: () => Promise<void>): void {
    this.#cleanups.push({ what, undo })
  }

  /** Records something created that nothing can remove (e.g. a queued notification). */
  leaveBehind(what: string): void {
    if (!this.#settings.leftBehind.includes(what)) this.#settings.leftBehind.push(what)
  }

  /** Runs the undo steps, newest first; one that fails is reported as left behind, never as the check's failure. */
  async cleanUp(): Promise<void> {
    for (const { what, undo } of this.#cleanups.splice(0).reverse()) {
      try {
        await undo()
      } catch (error) {
        this.leaveBehind(`${what} (${error instanceof Error ? error.message : String(error)})`)
      }
    }
  }
}
