import { describe, expect, it } from 'vitest'
import type { Command } from './command.js'
import { compareIds, type KeptCommands, type SharedCommands } from './command-store.js'
import { createSimulator } from '../create-simulator.js'
import { engineOf } from '../engine.js'
import type { Simulator } from '../simulator.js'

const BASE = 'http://sim.test'
const PASSWORD = 'correct horse battery'
const options = { seed: 7, clock: 'system', baseUrl: BASE } as const

function send(sim: Simulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }
  if (body !== undefined) init.body = JSON.stringify(body)
  return sim.fetch(new Request(`${BASE}${path}`, init))!.then(async (response) => ({ status: response.status, json: response.status === 204 ? null : await response.json() }))
}

/** A kept store in memory: what `--state-file` keeps, without the file. */
function keptStore(): KeptCommands & { commands: Command[] } {
  const commands: Command[] = []
  return { kind: 'kept', commands, append: async (command) => void commands.push(structuredClone(command)) }
}

/** A shared store in memory: what Redis is to replicas, one list every simulator appends to. */
function sharedStore(): { entries: Array<{ id: string; entry: string }>; store: () => SharedCommands } {
  const entries: Array<{ id: string; entry: string }> = []
  const store = (): SharedCommands => ({
    kind: 'shared',
    append: async (entry) => {
      const id = `${entries.length + 1}-0`
      entries.push({ id, entry })
      return id
    },
    readAfter: async (id) => entries.filter((entry) => compareIds(entry.id, id) > 0),
    lastId: async () => entries.at(-1)?.id ?? '0-0',
    decode: (_, entry) => JSON.parse(entry) as Command,
  })
  return { entries, store }
}

/** Writes of every kind: area writes (a password among them), a login, control actions, an isolated world. */
async function writeEverything(sim: Simulator): Promise<void> {
  expect((await send(sim, 'POST', '/admin/api/v1.2/users', { username: 'ada', email: 'ada@example.com', password: PASSWORD })).status).toBe(201)
  expect((await send(sim, 'POST', '/general/auth/login', { username: 'ada', password: PASSWORD })).status).toBe(200)
  const product = (sim.exportState() as { core: { products: Array<{ id: string }> } }).core.products[0]!
  expect((await send(sim, 'PUT', `/core/products/${product.id}`, { price: 12.5 })).status).toBe(200)
  expect((await send(sim, 'POST', '/quantum/v1/entangle', { particle_type: 'photon' })).status).toBe(201)
  expect((await send(sim, 'POST', '/__mock/clock', { advance: '2h' })).status).toBe(200)
  expect((await send(sim, 'POST', '/__mock/worlds', { id: 'w1', scenario: 'empty' })).status).toBe(201)
  expect((await send(sim, 'POST', '/core/users', { username: 'bob', email: 'bob@example.com', password: PASSWORD }, { 'x-mock-world': 'w1' })).status).toBe(201)
  await Promise.all(['carl1', 'carl2', 'carl3', 'carl4'].map((name) => send(sim, 'POST', '/core/users', { username: name, email: `${name}@example.com`, password: PASSWORD })))
}

const stateOf = (sim: Simulator) => JSON.stringify(sim.exportState())
const worldState = async (sim: Simulator, world: string) => JSON.stringify((await send(sim, 'GET', '/__mock/state', undefined, { 'x-mock-world': world })).json)

describe('CommandLog', () => {
  it('keeps every write as a command, with no password in clear, and a replay gives the same world byte for byte', async () => {
    const sim = createSimulator(options)
    await sim.ready
    const kept = keptStore()
    engineOf(sim).family.log.use(kept)
    const base = sim.snapshot()
    await writeEverything(sim)
    // Reads and refused writes are no commands: 5 writes, a login, 1 clock move, 1 world, 1 write in it, 4 users.
    expect(await send(sim, 'POST', '/core/users', { username: 'x' })).toMatchObject({ status: 400 })
    expect(kept.commands.map((command) => `${command.method} ${new URL(command.url).pathname}`)).toEqual([
      'POST /admin/api/v1.2/users',
      'POST /general/auth/login',
      expect.stringMatching(/^PUT \/core\/products\//),
      'POST /quantum/v1/entangle',
      'POST /__mock/clock',
      'POST /__mock/worlds',
      'POST /core/users',
      'POST /core/users',
      'POST /core/users',
      'POST /core/users',
      'POST /core/users',
    ])
    expect(JSON.stringify(kept.commands)).not.toContain(PASSWORD)

    // Another process, started much later, replays the same commands on the same seeded world.
    const replica = createSimulator(options)
    await replica.ready
    await replica.importState(base)
    for (const command of kept.commands) await engineOf(replica).family.log.replay(command)
    expect(stateOf(replica)).toBe(stateOf(sim))
    expect(await worldState(replica, 'w1')).toBe(await worldState(sim, 'w1'))
    // The sealed password still logs in, on both.
    for (const each of [sim, replica]) expect((await send(each, 'POST', '/general/auth/login', { username: 'ada', password: PASSWORD })).status).toBe(200)
    expect((await send(replica, 'POST', '/general/auth/login', { username: 'ada', password: 'wrong password' })).status).toBe(401)
  })

  it('answers a kept write only once its command is kept', async () => {
    const sim = createSimulator(options)
    await sim.ready
    let release: () => void = () => undefined
    let appended: () => void = () => undefined
    const appending = new Promise<void>((resolve) => (appended = resolve))
    engineOf(sim).family.log.use({
      kind: 'kept',
      append: () =>
        new Promise<void>((resolve) => {
          release = resolve
          appended()
        }),
    })
    let answered = false
    const pending = send(sim, 'POST', '/core/users', { username: 'slow', email: 'slow@example.com', password: PASSWORD }).then((reply) => {
      answered = true
      return reply
    })
    // Sealing the password comes first (key derivations): wait for the append itself, however long that takes on a busy machine.
    await appending
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(answered).toBe(false)
    release()
    expect((await pending).status).toBe(201)
  })

  it('lets replicas on a shared store see each other’s writes at once and hold the same world', async () => {
    const shared = sharedStore()
    const [a, b] = [createSimulator(options), createSimulator(options)]
    await Promise.all([a.ready, b.ready])
    await b.importState(a.snapshot())
    engineOf(a).family.log.use(shared.store())
    engineOf(b).family.log.use(shared.store())
    expect((await send(a, 'POST', '/core/users', { username: 'ada', email: 'ada@example.com', password: PASSWORD })).status).toBe(201)
    // Read-your-writes on the other replica: it applies what a wrote before answering.
    const found = (await send(b, 'GET', '/admin/api/v1.2/users?status=pending&limit=100')).json.map((user: { username: string }) => user.username)
    expect(found).toContain('ada')
    const writes: Array<Promise<unknown>> = []
    for (let i = 0; i < 20; i++) writes.push(send(i % 2 ? a : b, 'POST', '/core/users', { username: `user${i}`, email: `user${i}@example.com`, password: PASSWORD }))
    writes.push(send(b, 'POST', '/__mock/worlds', { id: 'shared-world' }), send(a, 'POST', '/__mock/clock', { advance: '1d' }))
    const statuses = (await Promise.all(writes)).map((reply) => reply as { status: number; json: unknown })
    expect(statuses.filter((reply) => reply.status !== 200 && reply.status !== 201)).toEqual([])
    // Both caught up: the same bytes, the isolated world included; no password in the shared log.
    await Promise.all([send(a, 'GET', '/__mock/health'), send(b, 'GET', '/__mock/health')])
    expect(stateOf(a)).toBe(stateOf(b))
    expect(await worldState(a, 'shared-world')).toBe(await worldState(b, 'shared-world'))
    expect(JSON.stringify(shared.entries)).not.toContain(PASSWORD)
  })

  it('restores a replica from a snapshot of every world, then the commands after it, and it agrees byte for byte, resets included', async () => {
    const shared = sharedStore()
    const a = createSimulator(options)
    await a.ready
    engineOf(a).family.log.use(shared.store())
    await writeEverything(a)
    // A world made and deleted before the snapshot: the next made after it is world-2 on every replica.
    expect((await send(a, 'POST', '/__mock/worlds', {})).json.id).toBe('world-1')
    expect((await send(a, 'DELETE', '/__mock/worlds/world-1')).status).toBe(204)
    const taken = await engineOf(a).family.log.serial(async () => ({ snapshot: JSON.stringify(engineOf(a).family.snapshot()), at: engineOf(a).family.log.applied }))
    expect(taken.at).not.toBe('0-0')
    // Written after the snapshot: the joining replica applies them from the log.
    expect((await send(a, 'POST', '/admin/api/v1.2/users', { username: 'late.one', email: 'late@example.com', password: PASSWORD })).status).toBe(201)
    expect((await send(a, 'POST', '/__mock/scenarios/empty', undefined, { 'x-mock-world': 'w1' })).status).toBe(200)

    const c = createSimulator({ ...options, seed: 7 })
    await c.ready
    await engineOf(c).family.restore(JSON.parse(taken.snapshot))
    engineOf(c).family.log.use(shared.store(), { applied: taken.at })
    await send(c, 'GET', '/__mock/health')
    expect(stateOf(c)).toBe(stateOf(a))
    expect(await worldState(c, 'w1')).toBe(await worldState(a, 'w1'))
    expect((await send(c, 'POST', '/general/auth/login', { username: 'ada', password: PASSWORD })).status).toBe(200)
    expect((await send(c, 'POST', '/__mock/worlds', {})).json.id).toBe('world-2')
    await send(a, 'GET', '/__mock/health')
    expect(JSON.stringify(c.worlds.list().map(({ id, records }) => ({ id, records })))).toBe(JSON.stringify(a.worlds.list().map(({ id, records }) => ({ id, records }))))
    // What reset returns to came with the snapshot too.
    expect((await send(c, 'POST', '/__mock/reset')).status).toBe(200)
    await send(a, 'GET', '/__mock/health')
    expect(stateOf(c)).toBe(stateOf(a))
  })

  it('expires an idle isolated world by a command, on every replica at once, and a replica’s reads keep it alive for all', async () => {
    const shared = sharedStore()
    const settings = { ...options, worlds: { idle: 1_000 } }
    const [a, b] = [createSimulator(settings), createSimulator(settings)]
    await Promise.all([a.ready, b.ready])
    await b.importState(a.snapshot())
    for (const sim of [a, b]) {
      engineOf(sim).family.log.use(shared.store())
      engineOf(sim).family.shareExpiry()
    }
    const sweep = async (sim: Simulator) => {
      for (const command of engineOf(sim).family.expiryCommands()) await engineOf(sim).family.log.submit(command, undefined)
    }
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    expect((await send(a, 'POST', '/__mock/worlds', { id: 'kept' })).status).toBe(201)
    expect((await send(a, 'POST', '/__mock/worlds', { id: 'idle' })).status).toBe(201)
    await pause(600)
    // Only b reads "kept": its sweep tells every replica.
    expect((await send(b, 'GET', '/__mock/health', undefined, { 'x-mock-world': 'kept' })).status).toBe(200)
    await sweep(b)
    await pause(600)
    // Idle for longer than 1 s, but no replica drops a world on its own: only an expire command does.
    expect(a.worlds.list().map((world) => world.id)).toEqual(['kept', 'idle'])
    await sweep(a)
    for (const sim of [a, b]) {
      const ids = (await send(sim, 'GET', '/__mock/worlds')).json.worlds.map((world: { id: string }) => world.id)
      expect(ids).toEqual(['kept'])
    }
  })
})
