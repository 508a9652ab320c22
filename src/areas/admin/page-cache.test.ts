import { describe, expect, it } from 'vitest'
import { toSimClock } from '../../kernel/time/sim-clock.js'
import { AccountStore } from '../../world/accounts/account-store.js'
import { World } from '../../world/world.js'
import { PageCache } from './page-cache.js'

const store = () => new AccountStore(new World({ seed: 1, clock: toSimClock('2026-01-01T00:00:00Z'), limits: { bodyBytes: 1024, ingestPoints: 10 } }))

describe('PageCache', () => {
  it('builds a page once until the accounts change, then again', async () => {
    const accounts = store()
    const pages = new PageCache<string>(accounts)
    let builds = 0
    const read = () => pages.get('?page=1', () => `[${++builds}:${accounts.size}]`)
    expect([read(), read()]).toEqual(['[1:0]', '[1:0]'])
    const ada = await accounts.register({ username: 'ada', email: 'ada@example.com', password: 'long-enough' })
    expect([read(), read()]).toEqual(['[2:1]', '[2:1]'])
    await accounts.update(ada.id, { email: 'ada@lovelace.dev' })
    expect(read()).toBe('[3:1]')
    await accounts.touchLogin(ada.id)
    expect(read()).toBe('[4:1]')
    accounts.remove(ada.id)
    expect(read()).toBe('[5:0]')
    accounts.replaceAll([])
    expect(read()).toBe('[6:0]')
  })

  it('keeps pages apart by key (the query string), and at most 32 of them', () => {
    const pages = new PageCache<string>(store())
    const built: string[] = []
    const read = (page: number, status?: string) => pages.get(`${status}/${page}`, () => (built.push(`${status}/${page}`), `${status}/${page}`))
    expect([read(1), read(1, 'active'), read(2)]).toEqual(['undefined/1', 'active/1', 'undefined/2'])
    expect(built).toHaveLength(3)
    for (let page = 3; page <= 33; page++) read(page)
    expect(built).toHaveLength(34)
    read(33)
    expect(built).toHaveLength(34)
    // The oldest page made room for the 33rd.
    read(1)
    expect(built).toHaveLength(35)
  })
})
