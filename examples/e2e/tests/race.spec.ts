// Two tests write the same usernames at the same time, half through the app's
// server and half from the browser: each sees only its own.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'multi-area-mock/playwright'
import { browserNames, serverNames } from './helpers.js'

/** Waits until the other writer has started too, so the writes really overlap (the suite runs two workers). */
async function meet(me: string, other: string): Promise<void> {
  const dir = process.env.E2E_RUN_DIR!
  writeFileSync(join(dir, `race-${me}`), '')
  await expect.poll(() => existsSync(join(dir, `race-${other}`)), { timeout: 20_000, message: `writer ${other} never started alongside writer ${me}` }).toBe(true)
}

const NAMES = Array.from({ length: 12 }, (_, i) => `racer-${i}`)

for (const [me, other] of [
  ['a', 'b'],
  ['b', 'a'],
] as const) {
  test(`racing writer ${me} never sees writer ${other}'s data`, async ({ page, mock }) => {
    await page.goto('/')
    await meet(me, other)
    const statuses = await Promise.all(
      NAMES.map((username, i) => {
        const email = `${username}@${me}.example`
        if (i % 2 === 0) {
          // Through the app's server: the request carries the world's cookie.
          return page.request.post('/people', { form: { username, email, password: 'long-enough' }, maxRedirects: 0 }).then((response) => response.status())
        }
        return page.evaluate(
          async ([username, email]) => {
            const api = document.querySelector<HTMLMetaElement>('meta[name="api-url"]')!.content
            const body = JSON.stringify({ username, email, password: 'long-enough' })
            return (await fetch(`${api}/core/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status
          },
          [username, email],
        )
      }),
    )
    // 303: the app created the person and redirects; 201: the API created them. No 409: the other writer's names are in another world.
    expect(statuses).toEqual(NAMES.map((_, i) => (i % 2 === 0 ? 303 : 201)))
    await page.reload()
    expect((await serverNames(page)).sort()).toEqual([...NAMES].sort())
    expect((await browserNames(page)).sort()).toEqual([...NAMES].sort())
    await expect(page.locator('#server-users')).not.toContainText(`@${other}.example`)
    const emails = (await mock.state()).accounts.users.map((user) => user.email)
    expect(emails.every((email) => email.endsWith(`@${me}.example`))).toBe(true)
    expect(emails).toHaveLength(NAMES.length)
  })
}
