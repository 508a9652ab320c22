/**
 * A replayed bundle is input, not trust (issue 43, item 7), with the real CLI:
 * `serve --replay` checks the bundle's `start` as `PUT /__mock/state` checks a
 * state document, keeps to the replaying server's limits (a bundle asking for
 * more than the server allows is refused, naming the flag that allows it),
 * takes only commands that are writes of this server, and says what is wrong
 * in one line, exit 1, before listening.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCli } from './support/cli-server.js'

const CLOCK = '2026-01-01T00:00:00.000Z'
const AT = Date.parse(CLOCK)

interface Bundle {
  options: Record<string, Record<string, unknown> | unknown>
  start: { state: { accounts: { users: unknown[] } } & Record<string, unknown> } & Record<string, unknown>
  commands: Array<{ method: string; url: string; body?: string; at: number }>
}

const root = mkdtempSync(join(tmpdir(), 'mam-replay-input-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A start that must fail: exit 1, one line on stderr, nothing listening. */
async function refused(args: string[]): Promise<string> {
  const run = await runCli(['serve', '--port', '0', '--quiet', ...args], 20_000)
  expect(run.stdout).not.toContain('listening on')
  expect(run.code, run.stderr).toBe(1)
  const lines = run.stderr.trim().split('\n')
  expect(lines, run.stderr).toHaveLength(1)
  return lines[0]!
}

describe('serve --replay takes a bundle as input', () => {
  let base: Bundle
  /** What PUT /__mock/state answers for a state document, on a server of its own. */
  let putState: (state: unknown) => Promise<{ status: number; body: { error: string; details: Array<{ path: string; message: string }> } }>
  let stopOrigin: () => Promise<unknown>

  beforeAll(async () => {
    const origin = await startCli(['--quiet', '--scenario', 'empty', '--clock', CLOCK])
    stopOrigin = () => origin.stop()
    base = (await (await fetch(`${origin.url}/__mock/bundle`)).json()) as Bundle
    putState = async (state) => {
      const response = await fetch(`${origin.url}/__mock/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(state) })
      return { status: response.status, body: await response.json() }
    }
  })
  afterAll(() => stopOrigin())

  /** Writes a changed copy of the base bundle to a fresh folder, compact (no indentation). */
  const write = (change: (bundle: Bundle) => void): string => {
    const bundle = structuredClone(base)
    change(bundle)
    const file = join(mkdtempSync(join(root, 'bundle-')), 'bundle.json')
    writeFileSync(file, JSON.stringify(bundle))
    return file
  }

  it('refuses a 2 KB bundle that declares maxRecords: 1e9 to build a world of 300,000 users, naming the flag that allows it', async () => {
    const file = write((bundle) => {
      const worlds = bundle.options.worlds as Record<string, number>
      worlds.maxRecords = 1e9
      worlds.maxTotalRecords = 1e9
      const scenario = { accounts: { generate: { active: 100_000, inactive: 100_000, pending: 100_000 } } }
      bundle.commands = [{ method: 'POST', url: 'http://127.0.0.1:4000/__mock/worlds', body: JSON.stringify({ id: 'big', scenario }), at: AT }]
    })
    expect((await import('node:fs')).statSync(file).size).toBeLessThan(3_000)
    expect(await refused(['--replay', file])).toBe(
      `multi-area-mock: The bundle ${file} asks for more than this server allows: worlds.maxRecords 1,000,000,000 (this server: 10,000; --max-world-records); worlds.maxTotalRecords 1,000,000,000 (this server: 100,000; --max-total-world-records). Give those flags to replay it, if you trust the file.`,
    )
  })

  it('replays a bundle with raised limits once the server is given them', async () => {
    const file = write((bundle) => {
      ;(bundle.options.worlds as Record<string, number>).maxRecords = 20_000
    })
    expect(await refused(['--replay', file])).toContain('worlds.maxRecords 20,000 (this server: 10,000; --max-world-records)')
    const server = await startCli(['--quiet', '--replay', file, '--max-world-records', '20000'])
    try {
      const worlds = (await (await fetch(`${server.url}/__mock/worlds`)).json()) as { maxRecords: number }
      expect(worlds.maxRecords).toBe(20_000)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it("refuses a bundle whose own scenario would seed the default world past the server's records per world", async () => {
    const file = write((bundle) => {
      bundle.options.scenario = { accounts: { generate: { active: 100_000, inactive: 100_000, pending: 100_000 } } }
    })
    expect(await refused(['--replay', file])).toBe(
      `multi-area-mock: The bundle ${file} seeds its world with 300,082 records (scenario "custom": 300,000 users, 40 resources, 24 products, 10 tokens, …), past the 10,000 this server allows one world (--max-world-records). Give that flag to replay it, if you trust the file.`,
    )
  })

  it('refuses a command that is no write (GET /__mock/bundle ended the process with exit 13 and no word)', async () => {
    const file = write((bundle) => {
      bundle.commands = [{ method: 'GET', url: 'http://127.0.0.1:4000/__mock/bundle', at: AT }]
    })
    expect(await refused(['--replay', file])).toBe(
      `multi-area-mock: The bundle ${file} holds a command that is no write of this server: command 1, GET /__mock/bundle (a bundle only holds the writes a world was changed by).`,
    )
  })

  it('refuses a command that reaches no route', async () => {
    const file = write((bundle) => {
      bundle.commands = [{ method: 'POST', url: 'http://127.0.0.1:4000/nowhere', body: '{}', at: AT }]
    })
    expect(await refused(['--replay', file])).toBe(
      `multi-area-mock: The bundle ${file} holds a command that is no write of this server: command 1, POST /nowhere (a bundle only holds the writes a world was changed by).`,
    )
  })

  it('refuses a start whose state PUT /__mock/state refuses, naming the same problem', async () => {
    const state = structuredClone(base.start.state)
    state.accounts.users = [{ username: 'x' }]
    const put = await putState(state)
    expect(put.status).toBe(400)
    const first = put.body.details[0]!
    const file = write((bundle) => {
      bundle.start.state = state
    })
    const line = await refused(['--replay', file])
    expect(line).toContain(
      `multi-area-mock: The bundle ${file} has a start that is no world this server takes (as PUT /__mock/state checks it): start.state.${first.path}: ${first.message}`,
    )
  })

  it('refuses a start that breaks a rule across records (a user id twice), as PUT /__mock/state does', async () => {
    const user = { id: '00680b53-ba24-80e1-bd20-ee9eaaf3927c', username: 'ada', email: 'ada@example.com', status: 'active', created_at: CLOCK, updated_at: CLOCK }
    const state = structuredClone(base.start.state)
    state.accounts.users = [user, { ...user, username: 'bea', email: 'bea@example.com' }]
    const put = await putState(state)
    expect(put.status).toBe(400)
    const file = write((bundle) => {
      bundle.start.state = state
    })
    const line = await refused(['--replay', file])
    expect(line).toMatch(
      new RegExp(
        `^multi-area-mock: The bundle ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has a start that is no world this server takes \\(as PUT /__mock/state checks it\\): start\\.state\\.accounts\\.users`,
      ),
    )
  })

  it('refuses a start that is not a world snapshot at all, in one line', async () => {
    const file = write((bundle) => {
      bundle.start = { hello: 1 } as unknown as Bundle['start']
    })
    expect(await refused(['--replay', file])).toMatch(/has a start that is no world this server takes \(as PUT \/__mock\/state checks it\): start\.\w+: /)
  })
})
