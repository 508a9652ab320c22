import type { RequestHeaders } from './sim-request.js'

/**
 * Request headers read from a plain object of lowercase names (values already
 * joined), the form a server has them in before it builds a Fetch `Request`.
 * Reading a Fetch `Headers` costs a brand check per `get` and a sorted copy per
 * iteration; the routes and the journal read every request's headers.
 *
 * @example
 * new RecordHeaders({ 'content-type': 'application/json' }).get('Content-Type') // 'application/json'
 */
export class RecordHeaders implements RequestHeaders {
  readonly #headers: Readonly<Record<string, string>>

  constructor(headers: Readonly<Record<string, string>>) {
    this.#headers = headers
  }

  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()]
    // `typeof`: a name such as `constructor` must not find what a plain object inherits.
    return typeof value === 'string' ? value : null
  }

  entries(): Iterable<[string, string]> {
    const pairs: Array<[string, string]> = []
    for (const name of Object.keys(this.#headers)) pairs.push([name, this.#headers[name]!])
    return pairs
  }
}
