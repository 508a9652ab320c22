import type { AccountStore } from '../../world/accounts/account-store.js'

/** Pages kept at once: more than a UI pages through between two writes. */
const PAGES = 32

/**
 * The last list pages served (their JSON and headers), until the next write to the
 * accounts. A page of 100 users is ~16 kB of text that a read-mostly client
 * asks for again and again; built once, it is not rebuilt or reallocated per
 * request, which at 100,000 users was most of the young-generation garbage of
 * a list request (bench/README.md, "Scale"); nor is its `Link` header. Any
 * write (the store's `version` moves) drops every page.
 *
 * @example
 * const pages = new PageCache<Page>(accounts)
 * const page = pages.get(url.search, () => buildPage())
 */
export class PageCache<T> {
  readonly #accounts: AccountStore
  readonly #pages = new Map<string, T>()
  #version = -1

  constructor(accounts: AccountStore) {
    this.#accounts = accounts
  }

  /** The page kept under `key` (what the request asked: its query string), from `build` when it is not kept (or the accounts changed since). */
  get(key: string, build: () => T): T {
    if (this.#version !== this.#accounts.version) {
      this.#pages.clear()
      this.#version = this.#accounts.version
    }
    let text = this.#pages.get(key)
    if (text === undefined) {
      text = build()
      if (this.#pages.size >= PAGES) this.#pages.delete(this.#pages.keys().next().value!)
      this.#pages.set(key, text)
    }
    return text
  }
}
