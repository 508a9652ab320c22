import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { call } from './support/http.js'

// What one request may make the real CLI server allocate: isolated worlds are
// sized from their scenario's declared counts before anything is generated
// (--max-world-records, --max-total-world-records).

/** The largest population a scenario may ask for: 100,000 users per status. */
const HUGE = { accounts: { generate: { active: 100_000, inactive: 100_000, pending: 100_000 } } }
/** A scenario of `count` generated users and nothing else. */
const users = (count: number) => ({ accounts: { generate: { active: count } }, core: { products: [] }, general: { generate: 0 }, ledger: { tokens: [], validators: [] } })

/** The server's resident memory in MB, where the platform shows it (Linux). */
function rssMb(server: CliServer): number | undefined {
  const status = `/proc/${server.process.pid}/status`
  if (!existsSync(status)) return undefined
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(status, 'utf8'))![1]) / 1024
}

describe('serve with the default limits', () => {
  let server: CliServer
  const url = (path: string) => `${server.url}${path}`
  beforeAll(async () => {
    server = await startCli(['--clock', '2026-01-01T00:00:00Z', '--quiet'])
    // call() checks replies against the served document: made once here, not inside a timed request.
    await call(url('/__mock/worlds'))
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('refuses a world of 300,000 users at once with a 413 naming the flag, and creates nothing', async () => {
    const before = rssMb(server)
    const started = performance.now()
    const refused = await call(url('/__mock/worlds'), { method: 'POST', json: { id: 'huge', scenario: HUGE } })
    const ms = performance.now() - started
    expect(refused.status).toBe(413)
    expect(refused.body).toMatchObject({ error: 'world_too_large', limit: 10_000, records: 300_082 })
    expect(refused.body.message).toMatch(/at most 10,000 records \(--max-world-records.*300,000 users/)
    // Seeding it took 3.7 s and +246 MB before; the refusal is counted, not generated.
    expect(ms).toBeLessThan(1_000)
    const after = rssMb(server)
    if (before !== undefined && after !== undefined) expect(after - before).toBeLessThan(50)
    expect((await call(url('/__mock/worlds'))).body).toMatchObject({ maxRecords: 10_000, maxTotalRecords: 100_000, records: 0, worlds: [] })
    expect((await call(url('/__mock/worlds/huge'))).status).toBe(404)
  })

  it('refuses a state document or scenario past the limit in a world, leaving the world as it was', async () => {
    const id = (await call(url('/__mock/worlds'), { method: 'POST', json: { scenario: 'empty' } })).body.id
    const headers = { 'x-mock-world': id }
    const state = {
      accounts: {
        users: Array.from({ length: 10_001 }, (_, i) => ({ id: `u${i}`, username: `user.${i}`, email: `u${i}@example.com`, status: 'active', created_at: '2026-01-01T00:00:00Z' })),
      },
    }
    const replaced = await call(url('/__mock/state'), { method: 'PUT', json: state, headers })
    expect(replaced.status).toBe(413)
    expect(replaced.body).toMatchObject({ error: 'world_too_large', records: 10_001, message: expect.stringContaining('--max-world-records') })
    expect((await call(url('/core/users'), { headers })).headers.get('x-total-count')).toBe('0')
    expect((await call(url(`/__mock/worlds/${id}`))).body.records).toBe(0)
    expect((await call(url(`/__mock/worlds/${id}`), { method: 'DELETE' })).status).toBe(204)
  })
})

describe('serve --max-world-records, --max-total-world-records', () => {
  let server: CliServer
  const url = (path: string) => `${server.url}${path}`
  const create = (id: string, count: number) => call(url('/__mock/worlds'), { method: 'POST', json: { id, scenario: users(count) } })
  beforeAll(async () => {
    server = await startCli(['--clock', '2026-01-01T00:00:00Z', '--quiet', '--max-world-records', '20000', '--max-total-world-records', '30000'])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('let a larger world through, and refuse the world that would pass the total with a 409 naming its flag', async () => {
    const first = await create('first', 15_000)
    expect(first.status).toBe(201)
    expect(first.body.records).toBe(15_000)
    expect((await call(url('/core/users?limit=1'), { headers: { 'x-mock-world': 'first' } })).headers.get('x-total-count')).toBe('15000')
    expect((await create('too-big', 20_001)).body).toMatchObject({ error: 'world_too_large', limit: 20_000 })

    const second = await create('second', 15_001)
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ error: 'conflict', limit: 30_000, records: 15_001, inUse: 15_000 })
    expect(second.body.message).toMatch(/--max-total-world-records/)
    expect((await call(url('/__mock/worlds'))).body).toMatchObject({ maxRecords: 20_000, maxTotalRecords: 30_000, records: 15_000, worlds: [{ id: 'first', records: 15_000 }] })

    expect((await call(url('/__mock/worlds/first'), { method: 'DELETE' })).status).toBe(204)
    expect((await create('second', 15_001)).status).toBe(201)
  })

  it('are listed by --help with their defaults, and a bad value is refused at start', async () => {
    const help = await runCli(['serve', '--help'])
    expect(help.stdout).toMatch(/--max-world-records <n>[\s\S]*\(default: 10000\)/)
    expect(help.stdout).toMatch(/--max-total-world-records <n>[\s\S]*\(default: 100000\)/)
    const bad = await runCli(['serve', '--port', '0', '--max-world-records', 'lots'])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/--max-world-records/)
  })
})
