import { check } from '../check.js'
import type { CheckContext } from '../check-context.js'
import { arrayBody, expectConforms, expectEqual, expectError, expectStatus, expectThat } from '../expect.js'
import { CheckFailure } from '../failures.js'
import type { Observed } from '../http-probe.js'
import { createAccount, setStatus } from '../setup.js'

const USERS = '/api/v1.2/users'
const LIST = `GET ${USERS}`

const admin = (ctx: CheckContext) => ctx.probe('admin')

/** Area A's list: shape, pagination arithmetic and headers, the status filter, bad queries (D12). */
export const adminListChecks = [
  check({
    name: 'admin.list-users',
    area: 'admin',
    operation: LIST,
    title: 'lists users: 200, documented shape, X-Total-Count and Link (D12)',
    writes: false,
    async run(ctx) {
      expectConforms(ctx, 'admin', LIST, await admin(ctx).send('GET', USERS, { query: { limit: '5' } }), 200)
    },
  }),
  check({
    name: 'admin.list-users.pagination',
    area: 'admin',
    operation: LIST,
    title: 'page sizes, X-Total-Count, Link first/prev/next/last, order, a page past the end is 200 [] (D12)',
    writes: true,
    async run(ctx) {
      // At least three users, whatever the implementation held before.
      for (let i = 0; i < 3; i++) await createAccount(ctx, 'admin')
      const first = await admin(ctx).send('GET', USERS, { query: { page: '1', limit: '2' } })
      expectStatus(first, 200)
      const total = totalCount(first)
      expectThat(total >= 3, `X-Total-Count is ${total} after three users were created`, 'at least 3', String(total))
      const last = Math.ceil(total / 2)
      expectEqual(arrayBody(first).length, 2, 'users on page 1 of limit 2')
      const links = linksOf(first)
      expectEqual([links.first, links.prev, links.next, links.last], [1, undefined, 2, last], 'Link pages (first, prev, next, last) of page 1')
      const second = await admin(ctx).send('GET', USERS, { query: { page: '2', limit: '2' } })
      expectStatus(second, 200)
      expectEqual(linksOf(second).prev, 1, 'Link rel="prev" of page 2')
      const ids = [...arrayBody(first), ...arrayBody(second)].map((user) => user.id)
      expectEqual(new Set(ids).size, ids.length, 'distinct users over pages 1 and 2')
      expectOrdered([...arrayBody(first), ...arrayBody(second)])
      const lastPage = await admin(ctx).send('GET', USERS, { query: { page: String(last), limit: '2' } })
      expectEqual(arrayBody(lastPage).length, total - (last - 1) * 2, `users on the last page (${last})`)
      const past = await admin(ctx).send('GET', USERS, { query: { page: String(last + 1), limit: '2' } })
      expectStatus(past, 200)
      expectEqual(past.json, [], 'a page past the end')
      const defaults = await admin(ctx).send('GET', USERS)
      expectEqual(arrayBody(defaults).length, Math.min(20, totalCount(defaults)), 'users on the default page (limit 20)')
    },
  }),
  check({
    name: 'admin.list-users.status-filter',
    area: 'admin',
    operation: LIST,
    title: 'status=inactive|pending lists only those users and counts only them (D12)',
    writes: true,
    async run(ctx) {
      const inactive = await createAccount(ctx, 'admin')
      await setStatus(ctx, inactive, 'inactive')
      await createAccount(ctx, 'admin')
      for (const status of ['inactive', 'pending'] as const) {
        const listed = await admin(ctx).send('GET', USERS, { query: { status, limit: '100' } })
        expectStatus(listed, 200)
        const users = arrayBody(listed)
        const other = users.find((user) => user.status !== status)
        expectThat(
          other === undefined,
          `status=${status} listed a user with status ${JSON.stringify(other?.status)}`,
          `only ${status} users`,
          `a user with status ${String(other?.status)}`,
        )
        const total = totalCount(listed)
        expectThat(
          total >= 1 && (total > 100 || total === users.length),
          `X-Total-Count ${total} does not count the ${users.length} ${status} users listed`,
          String(users.length),
          String(total),
        )
      }
      const listed = arrayBody(await admin(ctx).send('GET', USERS, { query: { status: 'inactive', limit: '100' } }))
      if (listed.length < 100)
        expectThat(
          listed.some((user) => user.id === inactive.id),
          'the user just made inactive is not listed under status=inactive',
          inactive.id!,
          'absent',
        )
    },
  }),
  check({
    name: 'admin.list-users.bad-query',
    area: 'admin',
    operation: LIST,
    title: 'page=0, limit=101 and an unknown status are 400 validation_failed (D12)',
    writes: false,
    async run(ctx) {
      for (const query of [{ page: '0' }, { limit: '101' }, { limit: 'ten' }, { status: 'deleted' }] as Array<Record<string, string>>) {
        expectError(ctx, 'admin', LIST, await admin(ctx).send('GET', USERS, { query }), 400, 'validation_failed')
      }
    },
  }),
]

function totalCount(observed: Observed): number {
  const header = observed.headers.get('x-total-count')
  if (header === null || !/^\d+$/.test(header)) throw new CheckFailure(`X-Total-Count is ${header === null ? 'missing' : JSON.stringify(header)}`, 'an integer', String(header))
  return Number(header)
}

/** The page number of each relation of an RFC 8288 `Link` header. */
function linksOf(observed: Observed): Record<string, number | undefined> {
  const header = observed.headers.get('link')
  if (header === null) throw new CheckFailure('the Link header is missing', 'Link: <…>; rel="first", …', 'none')
  const pages: Record<string, number | undefined> = {}
  for (const part of header.split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="?([a-z]+)"?/i.exec(part.trim())
    if (!match) continue
    const page = new URL(match[1]!, observed.url).searchParams.get('page')
    pages[match[2]!.toLowerCase()] = page === null ? 1 : Number(page)
  }
  return pages
}

/** Lists are ordered by created_at, then id (D12). */
function expectOrdered(users: Array<Record<string, unknown>>): void {
  for (let i = 1; i < users.length; i++) {
    const [a, b] = [users[i - 1]!, users[i]!]
    const order = compare(String(a.created_at), String(b.created_at)) || compare(String(a.id), String(b.id))
    if (order > 0)
      throw new CheckFailure(
        `users are not ordered by created_at, then id (at ${String(b.id)})`,
        'created_at, then id, ascending',
        `${String(a.created_at)} before ${String(b.created_at)}`,
      )
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
