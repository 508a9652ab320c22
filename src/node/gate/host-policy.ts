import { isIP } from 'node:net'

/** `--allowed-host` value that allows every `Host`. */
export const ANY_HOST = '*'

/**
 * Which `Host` headers the server answers (D27), against DNS rebinding: a page
 * on `rebind.attacker.example` whose name is made to point at 127.0.0.1 sends
 * its own name as `Host`. Allowed by default: `localhost` and names under
 * `.localhost`, any IP address (a rebinding page can only send a name), and
 * the name the server was bound to. Others only when listed (`--allowed-host`):
 * `mock.test` exactly, `.mock.test` for it and every name under it, `*` for all
 * (which turns this defence off: `knowsByName` tells the hosts `*` alone lets in).
 * The port is not compared.
 *
 * @example
 * const hosts = new HostPolicy(['.mock.test'], '127.0.0.1')
 * hosts.allows('localhost:4000')           // true
 * hosts.allows('api.mock.test')            // true
 * hosts.allows('rebind.attacker.example')  // false
 */
export class HostPolicy {
  readonly #exact: ReadonlySet<string>
  readonly #suffixes: readonly string[]
  readonly #any: boolean
  /** Answers kept per `Host` header: a client sends the same one on every request. */
  readonly #seen = new Map<string, boolean>()

  constructor(allowed: readonly string[], boundHost: string) {
    const names = allowed.map((name) => name.toLowerCase())
    this.#any = names.includes(ANY_HOST)
    this.#exact = new Set([...names.filter((name) => !name.startsWith('.')), boundHost.toLowerCase()])
    this.#suffixes = names.filter((name) => name.startsWith('.'))
  }

  /** Whether a request with this `Host` header may be answered. */
  allows(host: string): boolean {
    return this.#any || this.knowsByName(host)
  }

  /**
   * Whether this `Host` is allowed on its own merits, not only by `*`: only
   * such a host may vouch for an `Origin` naming it (same origin). Under `*`,
   * a rebinding page's name is answered, but its page stays a foreign origin.
   */
  knowsByName(host: string): boolean {
    let allowed = this.#seen.get(host)
    if (allowed === undefined) {
      allowed = this.#judge(host)
      // Bounded: a client sending a new Host each time must not grow it.
      if (this.#seen.size >= 256) this.#seen.clear()
      this.#seen.set(host, allowed)
    }
    return allowed
  }

  #judge(host: string): boolean {
    const name = hostname(host)
    if (name === undefined) return false
    if (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || this.#exact.has(name)) return true
    return this.#suffixes.some((suffix) => name.endsWith(suffix) || name === suffix.slice(1))
  }
}

/** The name of a `Host` header without its port, lowercase, without a final dot; `[::1]:4000` is `::1`. */
function hostname(host: string): string | undefined {
  const text = host.trim().toLowerCase()
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d*)?$/.exec(text)
  if (bracketed) return bracketed[1]
  const plain = /^([a-z0-9._-]+?)\.?(?::\d*)?$/.exec(text)
  return plain ? plain[1] : undefined
}

/**
 * An `--allowed-host` value checked: a host name, `.name` for a name and all
 * under it, or `*`. Returns what is wrong, if anything.
 *
 * @example
 * allowedHostProblem('mock.test:4000') // 'expected a host name without a port, such as mock.test or .mock.test'
 */
export function allowedHostProblem(value: string): string | undefined {
  if (value === ANY_HOST) return undefined
  return /^\.?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/.test(value) ? undefined : 'expected a host name without a port, such as mock.test or .mock.test, or "*"'
}
