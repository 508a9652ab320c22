/**
 * Replicas sharing their worlds through Redis (`serve --store`, issue 33) when
 * things go wrong, end to end: a replica killed with SIGKILL in the middle of
 * writes, Redis paused (SIGSTOP: connections hang) or stopped for 5 s under
 * load, and what Redis ends up holding of the passwords clients send.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@redis/client'
import { afterEach, describe, expect, it } from 'vitest'
import { expectSameState, type ReplicaSet, startReplicas, stateOf } from './support/replicas.js'

/** Longest a request may take while Redis is out: the store's 3 s timeout, twice, and slack for two busy cores. */
const BOUND_MS = 10_000

let set: ReplicaSet | undefined
afterEach(async () => {
  await set?.close()
  set = undefined
})

describe('a replica killed with SIGKILL during writes', () => {
  it('loses no answered write, and started again it catches up and agrees byte for byte', async () => {
    set = await startReplicas(3)
    const [first, victim, third] = [set.replicas[0]!, set.replicas[1]!, set.replicas[2]!]
    const load = startLoad(set.balancer.url, 'killed')
    await load.until(() => load.created.length >= 200)
    victim.process.kill('SIGKILL')
    await load.until(() => load.failed > 0 || load.created.length >= 400)
    // A real balancer notices the dead replica after a failed check or two.
    set.balancer.use([first.url, third.url])
    const createdBefore = load.created.length
    await load.until(() => load.created.length >= createdBefore + 200)
    await load.stop()

    expect(victim.process.signalCode).toBe('SIGKILL')
    const states = [await stateOf(first.url), await stateOf(third.url)]
    expectSameState(states[1]!, states[0]!)
    expect(missing(states[0]!, load.created)).toEqual([])
    // Writes cut off (connections to the killed replica) or refused by the balancer (502) may or may not be there.
    expect(Object.keys(load.statuses).filter((status) => status !== '201' && status !== '502')).toEqual([])

    const again = await set.add()
    expectSameState(await stateOf(again.url), states[0]!)
  }, 120_000)
})

describe.each([
  ['paused (SIGSTOP: it accepts connections and answers nothing)', (set: ReplicaSet) => set.redis.pause(), (set: ReplicaSet) => set.redis.resume()],
  ['stopped (its port closed)', (set: ReplicaSet) => set.redis.stop(), (set: ReplicaSet) => set.redis.start()],
])('Redis %s for 5 s under load', (_, lose, restore) => {
  it('answers 503 store_unavailable with Retry-After, health 503, then recovers alone with every answered write', async () => {
    set = await startReplicas(3)
    const load = startLoad(set.balancer.url, 'outage')
    await load.until(() => load.created.length >= 100)
    const lost = Date.now()
    await lose(set)
    const unhealthy = await Promise.all(set.replicas.map((replica) => waitForHealth(replica.url, 503)))
    for (const reply of unhealthy) {
      expect(reply.body).toMatchObject({ error: 'store_unavailable' })
      expect(reply.retryAfter).toMatch(/^\d+$/)
    }
    expect(Date.now() - lost).toBeLessThan(BOUND_MS)
    await load.until(() => Date.now() - lost >= 5_000)
    const createdInOutage = load.created.length
    await restore(set)
    await Promise.all(set.replicas.map((replica) => waitForHealth(replica.url, 200)))
    await load.until(() => load.created.length >= createdInOutage + 100)
    await load.stop()

    expect(load.statuses[503]).toBeGreaterThan(0)
    expect(Object.keys(load.statuses).sort()).toEqual(['201', '503'])
    for (const reply of load.unavailable) {
      expect(reply.body).toMatchObject({ error: 'store_unavailable', message: expect.any(String) })
      expect(reply.retryAfter).toMatch(/^\d+$/)
    }
    expect(load.failed).toBe(0)
    expect(load.slowestMs).toBeLessThan(BOUND_MS)
    const states = await Promise.all(set.replicas.map((replica) => stateOf(replica.url)))
    expectSameState(states[1]!, states[0]!)
    expectSameState(states[2]!, states[0]!)
    expect(missing(states[0]!, load.created)).toEqual([])
  }, 120_000)
})

describe('passwords sent to replicas', () => {
  it('never reach Redis: not in any key, nor in its append-only file', async () => {
    set = await startReplicas(2)
    const base = set.balancer.url
    const secret = (n: number) => `Zebra-Quartz-${n}-Wombat`
    const send = async (path: string, json: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, {
        method: path === '/__mock/state' ? 'PUT' : 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(json),
        signal: AbortSignal.timeout(BOUND_MS),
      })
      return { status: response.status, body: await response.json() }
    }
    const user = (name: string, password: string) => ({ username: name, email: `${name}@example.com`, password })
    expect((await send('/admin/api/v1.2/users', user('secret.admin', secret(1)))).status).toBe(201)
    expect((await send('/core/users', user('secret.core', secret(2)))).status).toBe(201)
    expect((await send('/general/auth/login', { username: 'secret.core', password: secret(2) })).status).toBe(200)
    expect((await send('/general/auth/login', { username: 'secret.core', password: secret(3) })).status).toBe(401)
    const state = JSON.parse(await stateOf(base))
    state.accounts.users.push({
      id: 'secret-state-user',
      username: 'secret.state',
      email: 'secret.state@example.com',
      status: 'active',
      created_at: '2026-01-01T00:00:00.000Z',
      password: secret(4),
    })
    const replaced = await send('/__mock/state', state)
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    expect((await send('/general/auth/login', { username: 'secret.state', password: secret(4) })).status).toBe(200)
    const world = await send('/__mock/worlds', { scenario: { accounts: { password: secret(5), users: [user('secret.world', secret(6))] } } })
    expect(world.status).toBe(201)
    expect((await send('/general/auth/login', { username: 'secret.world', password: secret(6) }, { 'x-mock-world': world.body.id })).status).toBe(200)
    // Refused before it is a command: still nowhere.
    expect((await send('/core/users', { username: 'x', password: secret(7) })).status).toBe(400)

    const held = await everythingIn(set.redis.url)
    expect(held).toContain('secret.state') // the scan does read the commands
    const onDisk = filesUnder(set.redis.dir)
    expect(onDisk).toContain('secret.world')
    for (let n = 1; n <= 7; n++) {
      expect(held).not.toContain(secret(n))
      expect(onDisk).not.toContain(secret(n))
    }
  }, 60_000)
})

interface Answer {
  status: number
  body: any
  retryAfter: string | null
}

/** Clients writing users through `base` one after another, 8 at once, until stopped; what they were answered. */
function startLoad(base: string, prefix: string, clients = 8) {
  let running = true
  let sent = 0
  const load = {
    /** Usernames answered 201. */
    created: [] as string[],
    statuses: {} as Record<number, number>,
    /** The 503 answers. */
    unavailable: [] as Answer[],
    /** Requests with no answer (a connection cut, or no answer within BOUND_MS). */
    failed: 0,
    slowestMs: 0,
    /** Resolves once `done()` holds (checked every 20 ms), failing after 30 s. */
    async until(done: () => boolean): Promise<void> {
      const deadline = Date.now() + 30_000
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`The load did not get there within 30 s: ${JSON.stringify({ ...load.statuses, failed: load.failed })}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    stop: async () => {
      running = false
      await Promise.all(workers)
    },
  }
  const client = async () => {
    while (running) {
      const username = `${prefix}.${sent++}`
      const path = sent % 2 === 0 ? '/core/users' : '/admin/api/v1.2/users'
      const started = performance.now()
      let created = false
      try {
        const response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, email: `${username}@example.com`, password: 'Passw0rd!long' }),
          signal: AbortSignal.timeout(BOUND_MS),
        })
        const answer = { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') }
        load.statuses[answer.status] = (load.statuses[answer.status] ?? 0) + 1
        created = answer.status === 201
        if (created) load.created.push(username)
        if (answer.status === 503) load.unavailable.push(answer)
      } catch {
        load.failed++
      }
      load.slowestMs = Math.max(load.slowestMs, performance.now() - started)
      // As a client honouring Retry-After would, but sooner: the test has no time to lose.
      if (!created) await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const workers = Array.from({ length: clients }, client)
  return load
}

/** The usernames the world exported in `state` does not hold. */
function missing(state: string, usernames: readonly string[]): string[] {
  const held = new Set((JSON.parse(state).accounts.users as Array<{ username: string }>).map((user) => user.username))
  return usernames.filter((username) => !held.has(username))
}

/** Polls `GET /__mock/health` on one replica until it answers `status` (each poll bounded), failing after BOUND_MS. */
async function waitForHealth(base: string, status: number): Promise<Answer> {
  const deadline = Date.now() + BOUND_MS
  for (;;) {
    const response = await fetch(`${base}/__mock/health`, { signal: AbortSignal.timeout(BOUND_MS) })
    const answer = { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') }
    if (answer.status === status) return answer
    if (Date.now() > deadline) throw new Error(`${base}/__mock/health answered ${answer.status}, not ${status}, for ${BOUND_MS} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Every key of every kind in the Redis at `url`, with all it holds, as one text. */
async function everythingIn(url: string): Promise<string> {
  const client = createClient({ url })
  await client.connect()
  try {
    const parts: unknown[] = []
    for await (const keys of client.scanIterator({ COUNT: 100 })) {
      for (const key of keys) {
        const type = await client.type(key)
        const read: Record<string, string[]> = {
          string: ['GET', key],
          hash: ['HGETALL', key],
          list: ['LRANGE', key, '0', '-1'],
          set: ['SMEMBERS', key],
          zset: ['ZRANGE', key, '0', '-1'],
          stream: ['XRANGE', key, '-', '+'],
        }
        if (read[type] === undefined) throw new Error(`Key ${key} holds a ${type}, which this scan cannot read`)
        parts.push(key, await client.sendCommand(read[type]!))
      }
    }
    return JSON.stringify(parts)
  } finally {
    client.destroy()
  }
}

/** Every file Redis wrote in its folder (the append-only files), as one text. */
function filesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'latin1'))
    .join('\n')
}
