/**
 * Vitest entry of multi-area-mock: `import 'multi-area-mock/vitest'` (in a test
 * file or a setup file) adds `expect(sim).toHaveReceivedRequest(match, { times? })`
 * for in-process simulators (`createSimulator`, a world of `sim.worlds`), and
 * `await expect(world).toHaveReceivedRequest(...)` for a `createMockWorld` world on a server;
 * `attachWorldOnFailure(world)` keeps the world of a failed test as a bundle file.
 *
 * @example
 * import 'multi-area-mock/vitest'
 * await fetch('http://localhost/core/users')
 * expect(sim).toHaveReceivedRequest({ method: 'GET', path: '/core/users', status: 200 }, { times: 1 })
 */
import { expect } from 'vitest'
import type { RequestJournal } from '../simulator/journal/journal-entry.js'
import { MockWorld } from '../testing/mock-world.js'
import { checkMatch, type JournalSnapshot, judge, type MatchOptions, type RequestMatch, readJournal, readJournalAsync, short } from '../testing/request-match.js'

export type { MatchOptions, RequestMatch } from '../testing/request-match.js'
export { attachWorldOnFailure, type AttachWorldOnFailureOptions } from './attach-world-on-failure.js'

/** What the matcher reads: a `Simulator` has both. */
interface JournalHolder {
  readonly journal: Pick<RequestJournal, 'find'>
  readonly worldId: string | null
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration must match vitest's own Matchers<T = any>
  interface Matchers<T = any> {
    /**
     * The simulator's request journal has a request matching `match` (exactly
     * `times` of them when given); on failure the message shows the closest
     * entries and how each differs.
     *
     * @example
     * expect(sim).toHaveReceivedRequest({ method: 'POST', path: '/admin/api/v1.2/users', body: { username: 'ada' } })
     */
    toHaveReceivedRequest(match: RequestMatch, options?: Omit<MatchOptions, 'timeout'>): T
  }
}

expect.extend({
  toHaveReceivedRequest(received: unknown, match: RequestMatch, options: MatchOptions = {}) {
    const hint = this.utils.matcherHint('toHaveReceivedRequest', 'sim', 'match', { isNot: this.isNot })
    const checked = checkMatch(match, options)
    const report = (snapshot: JournalSnapshot) => {
      const verdict = judge(checked.match, checked.options, snapshot, this.isNot)
      return { pass: verdict.pass, message: () => `${hint}\n\n${verdict.message()}`, actual: verdict.matched.length, expected: match }
    }
    // A world on a server (createMockWorld) reads its journal over HTTP: `await expect(world)...`.
    if (received instanceof MockWorld) return readJournalAsync(received.journal, checked.match, received.worldId).then(report)
    if (!isJournalHolder(received)) throw new TypeError(`toHaveReceivedRequest: expected a simulator (createSimulator()) or a MockWorld, received ${short(received)}.`)
    return report(readJournal(received.journal, checked.match, received.worldId))
  },
})

function isJournalHolder(value: unknown): value is JournalHolder {
  const journal = (value as { journal?: { find?: unknown } } | null)?.journal
  return typeof journal?.find === 'function' && 'worldId' in (value as object)
}
