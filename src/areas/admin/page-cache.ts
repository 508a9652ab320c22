import type { AccountStore } from '../../world/accounts/account-store.js'

/** Pages kept at once: more than a UI pages through between two writes. */
const PAGES = 32

/**
 * The JSON of the last list pages served, until the next write to the
 * accounts. A page of 100 users is ~16 kB of text that a read-mostly client
 * asks for again and again; built once, it is not rebuilt or reallocated per
 * request, which at 100,000 users was most of the young-generation garbage of
 * a list request (bench/README.md, "Scale"). Any write (the store's `version`
 * moves) drops every page.
 *
 * @example
 * const pages = new PageCache(accounts)
 * const text = pages.get({ status: undefined, page: 1, limit: 20 }, () => buildPage())
 */
export class PageCache {
  readonly #accounts: AccountStore
  readonly #pages = new Map<string, string>()
  #version = -1

  constructor(accounts: AccountStore) {
    this.#accounts = accounts
  }

  /** The page's text, from `build` when it is not kept (or the accounts changed since). */
  get(query: { status?: string | undefined; page: number; limit: number }, build: () => string): string {
    if (this.#version !== this.#accounts.version) {
      this.#pages.clear()
      this.#version = this.#accounts.version
    }
    const key = `${query.status ?? ''}/${query.page}/${query.limit}`
    let text = this.#pages.get(key)
    if (text === undefined) {
      text = build()
      if (this.#pages.size >= PAGES) this.#pages.delete(this.#pages.keys().next().value!)
      this.#pages.set(key, text)
    }
    return text
  }
}
