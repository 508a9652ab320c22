/**
 * `serve --scenario <file> --watch`, end to end with the built CLI: a change
 * of the file reloads the world once (a save written twice, or replaced by a
 * rename as editors do, is one reload), with one line on stdout and one
 * `scenario-file` event on `GET /__mock/events`; a broken file keeps the last
 * good world and says why in one line; loads by name (`POST
 * /__mock/scenarios/{name}`, an isolated world) get the new content; a bundle
 * taken after a reload replays to the same world. `--watch` without a file,
 * with `--store` or with `--replay` is refused with one line.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { call } from './support/http.js'

const CLOCK = '2026-01-01T00:00:00.000Z'
/** Longer than the watcher's pause after the last write, so a second reload would have happened by then. */
const SETTLE_MS = 600

const dir = mkdtempSync(join(tmpdir(), 'mam-watch-'))
const file = join(dir, 'team.json')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A scenario with exactly these users (and no other records). */
function team(usernames: string[]): string {
  return JSON.stringify({
    description: 'The team',
    seed: 7,
    accounts: { users: usernames.map((username) => ({ username, email: `${username}@example.com`, status: 'active' })) },
    core: { products: [] },
    general: { resources: [] },
    ledger: { tokens: [], validators: [] },
  })
}

/** Writes the file as an editor that saves through a temporary file and a rename does. */
function replaceByRename(text: string): void {
  const temporary = join(dir, '.team.json.swp')
  writeFileSync(temporary, text)
  renameSync(temporary, file)
}

async function usernames(base: string, headers: Record<string, string> = {}): Promise<string[]> {
  const reply = await call(`${base}/admin/api/v1.2/users?limit=100`, { headers })
  expect(reply.status).toBe(200)
  return (reply.body as Array<{ username: string }>).map((user) => user.username).sort()
}

/** Every event of a `GET /__mock/events` stream, as they arrive. */
class EventLog {
  readonly events: Array<{ event: string; data: any }> = []
  readonly #abort = new AbortController()

  static async open(url: string): Promise<EventLog> {
    const log = new EventLog()
    const response = await fetch(url, { signal: log.#abort.signal })
    if (response.status !== 200) throw new Error(`GET /__mock/events answered ${response.status}`)
    void log.#read(response.body!.pipeThrough(new TextDecoderStream()).getReader())
    // Opened in `beforeAll`, where `expect.poll` cannot run.
    for (const deadline = Date.now() + 5_000; log.named('hello').length === 0; await pause(20)) {
      if (Date.now() > deadline) throw new Error('no hello event within 5 s')
    }
    return log
  }

  named(event: string): any[] {
    return this.events.filter((entry) => entry.event === event).map((entry) => entry.data)
  }

  close(): void {
    this.#abort.abort()
  }

  async #read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
    let text = ''
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        text += value
        let end: number
        while ((end = text.indexOf('\n\n')) !== -1) {
          const block = text.slice(0, end)
          text = text.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event !== undefined && data !== undefined) this.events.push({ event, data: JSON.parse(data) })
        }
      }
    } catch {
      // Aborted by close().
    }
  }
}

const reloadedLines = (server: CliServer) =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.includes('changed: reloaded'))
const stderrLines = (server: CliServer) =>
  server
    .stderr()
    .split('\n')
    .filter((line) => line.trim() !== '')
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('serve --scenario <file> --watch', () => {
  let server: CliServer
  let events: EventLog

  beforeAll(async () => {
    writeFileSync(file, team(['ada', 'bob']))
    server = await startCli(['--quiet', '--clock', CLOCK, '--scenario', file, '--watch'])
    events = await EventLog.open(`${server.url}/__mock/events`)
  })
  afterAll(async () => {
    events?.close()
    await server?.stop()
  })

  it('starts with the file and says it watches it', async () => {
    expect(await usernames(server.url)).toEqual(['ada', 'bob'])
    expect(server.stdout()).toMatch(/^\s+Scenario file, reloaded on change\s+\S*team\.json$/m)
  })

  it('reloads once for a save written twice (emptied, then written), with one line and one event', async () => {
    writeFileSync(file, '')
    await pause(20)
    writeFileSync(file, team(['ada', 'bob', 'cleo']))
    await expect.poll(() => reloadedLines(server).length, { timeout: 5_000 }).toBe(1)
    await pause(SETTLE_MS)
    expect(reloadedLines(server)).toEqual([`scenario ${file} changed: reloaded (3 users)`])
    expect(server.stderr()).toBe('')
    expect(await usernames(server.url)).toEqual(['ada', 'bob', 'cleo'])
    expect(events.named('scenario-file')).toEqual([{ file, scenario: 'team', status: 'reloaded', counts: expect.objectContaining({ users: 3, products: 0 }) }])
    // The world changed as a load of the scenario does, through the same command.
    expect(events.named('change')).toContainEqual(
      expect.objectContaining({ cause: 'request', method: 'POST', url: expect.stringMatching(/\/__mock\/scenarios\/team$/), status: 200 }),
    )
    const health = await call(`${server.url}/__mock/health`)
    expect(health.body.scenario).toBe('team')
  })

  it('reloads once for a file replaced by a rename, as editors save', async () => {
    replaceByRename(team(['ada', 'dan']))
    await expect.poll(() => reloadedLines(server).length, { timeout: 5_000 }).toBe(2)
    await pause(SETTLE_MS)
    expect(reloadedLines(server)).toHaveLength(2)
    expect(await usernames(server.url)).toEqual(['ada', 'dan'])
    expect(events.named('scenario-file')).toHaveLength(2)
  })

  it('keeps the last good world when the file is not JSON, and says why in one line', async () => {
    writeFileSync(file, '{ "accounts": ')
    await expect.poll(() => stderrLines(server).length, { timeout: 5_000 }).toBe(1)
    await pause(SETTLE_MS)
    const [line] = stderrLines(server)
    expect(line).toMatch(/^multi-area-mock: scenario .*team\.json changed but was not reloaded \(the world stays as it was\): .*not valid JSON/)
    expect(stderrLines(server)).toHaveLength(1)
    expect(reloadedLines(server)).toHaveLength(2)
    expect(await usernames(server.url)).toEqual(['ada', 'dan'])
    // The event travels the SSE stream, which may trail the log line.
    await expect
      .poll(() => events.named('scenario-file').at(-1), { timeout: 5_000 })
      .toEqual({ file, scenario: 'team', status: 'invalid', error: expect.stringContaining('not valid JSON') })
  })

  it('keeps the last good world when the file fails the scenario schema, naming the field', async () => {
    writeFileSync(file, JSON.stringify({ accounts: { users: [{ username: 'eve', email: 'not-an-email', status: 'active' }] } }))
    await expect.poll(() => stderrLines(server).length, { timeout: 5_000 }).toBe(2)
    expect(stderrLines(server)[1]).toMatch(/changed but was not reloaded \(the world stays as it was\): .*accounts\.users\.0\.email/)
    expect(server.stderr()).not.toMatch(/^\s+at\s/m)
    expect(await usernames(server.url)).toEqual(['ada', 'dan'])
  })

  it('reloads again once the file is fixed', async () => {
    writeFileSync(file, team(['ada', 'fay']))
    await expect.poll(() => reloadedLines(server).length, { timeout: 5_000 }).toBe(3)
    expect(await usernames(server.url)).toEqual(['ada', 'fay'])
    await expect.poll(() => events.named('scenario-file').map((event) => event.status), { timeout: 5_000 }).toEqual(['reloaded', 'reloaded', 'invalid', 'invalid', 'reloaded'])
  })

  it('starts the history again at a reload, so what it rebuilds is what the file loaded then', async () => {
    // Loads of "team" kept from before would replay with the new content: the history begins at the last reload.
    const history = await call(`${server.url}/__mock/history`)
    expect(history.body.count).toBe(1)
    expect(history.body.commands[0]).toMatchObject({ number: 1, method: 'POST', path: '/__mock/scenarios/team' })
    const before = await call(`${server.url}/__mock/history/1`)
    expect(before.body.state.accounts.users.map((user: { username: string }) => user.username).sort()).toEqual(['ada', 'dan'])
  })

  it('loads the new content by name too: POST /__mock/scenarios/{name} and an isolated world', async () => {
    const created = await call(`${server.url}/admin/api/v1.2/users`, { method: 'POST', json: { username: 'gus', email: 'gus@example.com', password: 'Passw0rd!' } })
    expect(created.status).toBe(201)
    expect((await call(`${server.url}/__mock/scenarios/team`, { method: 'POST' })).status).toBe(200)
    expect(await usernames(server.url)).toEqual(['ada', 'fay'])
    expect((await call(`${server.url}/__mock/worlds`, { method: 'POST', json: { id: 'w1', scenario: 'team' } })).status).toBe(201)
    expect(await usernames(server.url, { 'x-mock-world': 'w1' })).toEqual(['ada', 'fay'])
  })

  it('leaves a world that runs another scenario as it is: only what the name loads changes', async () => {
    expect((await call(`${server.url}/__mock/scenarios/empty`, { method: 'POST' })).status).toBe(200)
    writeFileSync(file, team(['ada', 'gil']))
    await expect.poll(() => server.stdout().includes('"team" loads the new content'), { timeout: 5_000 }).toBe(true)
    expect(server.stdout()).toContain(`scenario ${file} changed: "team" loads the new content (the world runs "empty"; POST /__mock/scenarios/team loads it)`)
    await expect.poll(() => events.named('scenario-file').at(-1), { timeout: 5_000 }).toEqual({ file, scenario: 'team', status: 'registered' })
    expect(await usernames(server.url)).toEqual([])
    expect((await call(`${server.url}/__mock/scenarios/team`, { method: 'POST' })).status).toBe(200)
    expect(await usernames(server.url)).toEqual(['ada', 'gil'])
  })

  it('a bundle taken after reloads replays to the same world', async () => {
    const created = await call(`${server.url}/admin/api/v1.2/users`, { method: 'POST', json: { username: 'hal', email: 'hal@example.com', password: 'Passw0rd!' } })
    expect(created.status).toBe(201)
    const state = (await call(`${server.url}/__mock/state`)).text
    const bundle = join(dir, 'bundle.json')
    writeFileSync(bundle, (await call(`${server.url}/__mock/bundle`)).text)
    const replayed = await startCli(['--quiet', '--replay', bundle])
    try {
      expect((await call(`${replayed.url}/__mock/state`)).text).toBe(state)
    } finally {
      await replayed.stop()
    }
  })

  it('stops cleanly, watcher included', async () => {
    events.close()
    expect(await server.stop()).toBe(0)
    // No reload after the stop: the watcher is gone with the server.
    expect(server.stderr()).not.toMatch(/^\s+at\s/m)
  })
})

describe('serve --watch with --state-file', () => {
  it('after kill -9, a restart finds the world it answered, writes before and after a reload included', async () => {
    const scenario = join(dir, 'kept.json')
    const stateFile = join(dir, 'kept-world.json')
    writeFileSync(scenario, team(['ada']))
    const args = ['--quiet', '--clock', CLOCK, '--scenario', scenario, '--watch', '--state-file', stateFile]
    const server = await startCli(args)
    let again: CliServer | undefined
    try {
      const create = (username: string) =>
        call(`${server.url}/admin/api/v1.2/users`, { method: 'POST', json: { username, email: `${username}@example.com`, password: 'Passw0rd!' } })
      expect((await create('ivy')).status).toBe(201)
      // The new file holds the user created before it: replayed on the new content, that write would be a 409.
      writeFileSync(scenario, team(['ada', 'ivy', 'jon']))
      await expect.poll(() => server.stdout().includes('changed: reloaded'), { timeout: 5_000 }).toBe(true)
      expect((await create('kim')).status).toBe(201)
      const state = (await call(`${server.url}/__mock/state`)).text
      server.process.kill('SIGKILL')
      await new Promise((resolve) => server.process.once('exit', resolve))
      again = await startCli(args)
      expect((await call(`${again.url}/__mock/state`)).text).toBe(state)
      expect(await usernames(again.url), server.stdout() + server.stderr()).toEqual(['ada', 'ivy', 'jon', 'kim'])
    } finally {
      if (server.process.exitCode === null && server.process.signalCode === null) await server.stop()
      await again?.stop()
    }
  }, 60_000)
})

describe('serve --watch refusals', () => {
  const refusal = async (args: string[]) => {
    const run = await runCli(['serve', '--port', '0', '--quiet', ...args])
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain('listening on')
    const lines = run.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    return lines[0]!
  }

  it('needs a scenario file', async () => {
    expect(await refusal(['--watch'])).toMatch(/^multi-area-mock: --watch reloads a scenario file when it changes: give one with --scenario \.\/my-scenario\.json/)
    expect(await refusal(['--watch', '--scenario', 'empty'])).toMatch(/"empty" names a built-in scenario, not a file/)
  })

  it('is refused with --store: replicas must all load the same scenarios', async () => {
    writeFileSync(file, team(['ada']))
    expect(await refusal(['--watch', '--scenario', file, '--store', 'redis://127.0.0.1:1'])).toMatch(/^multi-area-mock: --watch .*not with --store/)
  })

  it('is refused with --replay: the world comes from the bundle', async () => {
    expect(await refusal(['--watch', '--replay', join(dir, 'missing.json')])).toMatch(/leave out --watch/)
  })
})
