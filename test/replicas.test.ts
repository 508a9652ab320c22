/**
 * Replicas sharing their worlds through Redis (`serve --store`, issue 33),
 * end to end: the real CLI, Debian's redis-server, and a round-robin balancer
 * in front, so consecutive requests of one client land on different
 * processes. The faults (a replica killed, Redis paused or stopped) and the
 * secrets kept in Redis are in replicas-faults.test.ts.
 */
import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { describeAdminContract } from './contracts/admin.contract.js'
import { describeControlContract } from './contracts/control.contract.js'
import { describeCoreContract } from './contracts/core.contract.js'
import { describeGeneralContract } from './contracts/general.contract.js'
import { describeLedgerContract, describeLedgerSigningContract } from './contracts/ledger.contract.js'
import { describeQuantumContract } from './contracts/quantum.contract.js'
import { runCli, startCli } from './support/cli-server.js'
import { createPool } from './support/pool.js'
import { startRedis } from './support/redis-server.js'
import { expectSameState, REPLICA_ARGS, stateOf, useReplicas } from './support/replicas.js'

describe('three replicas behind a round-robin balancer answer every contract as one process does', () => {
  const replicas = useReplicas(3)

  describeAdminContract(() => replicas().balancer.url)
  describeCoreContract(() => replicas().balancer.url)
  describeQuantumContract(() => replicas().balancer.url)
  describeGeneralContract(() => replicas().balancer.url)
  describeLedgerContract(() => replicas().balancer.url)
  describeControlContract(() => replicas().balancer.url)

  it('spread the requests over all three replicas', () => {
    expect([...replicas().balancer.sent.values()]).toHaveLength(3)
    for (const count of replicas().balancer.sent.values()) expect(count).toBeGreaterThan(100)
  })
})

// Area E's signing modes need replicas started with --signature-mode (as in test/areas-http.test.ts).
describe.each(['eip191', 'eip712'] as const)('three replicas with --signature-mode %s behind the balancer', (mode) => {
  const replicas = useReplicas(3, { args: ['--signature-mode', mode] })

  describeLedgerSigningContract(() => replicas().balancer.url, mode)
})

describe('10,000 concurrent writes spread over three replicas', () => {
  const replicas = useReplicas(3)

  it('leave every replica, and a fourth started afterwards, with the same world byte for byte', async () => {
    const total = 10_000
    const before = JSON.parse(await stateOf(replicas().replicas[0]!.url))
    const pool = createPool(replicas().balancer.url, 32)
    const statuses: Record<number, number> = {}
    const put = new Map<string, unknown[]>()
    let next = 0
    // 32 clients, each sending its next write as soon as the last is answered.
    const client = async (): Promise<void> => {
      while (next < total) {
        const reply = await write(next++)
        statuses[reply.status] = (statuses[reply.status] ?? 0) + 1
        if (reply.status === 200) put.set(reply.body.id, [...(put.get(reply.body.id) ?? []), reply.body])
      }
    }
    const write = (index: number) => {
      const name = `replica.writer.${index}`
      const user = { username: name, email: `${name}@example.com`, password: 'Passw0rd!long' }
      switch (index % 4) {
        case 0:
          return pool.send('POST', '/admin/api/v1.2/users', { json: user })
        case 1:
          return pool.send('POST', '/core/users', { json: user })
        case 2:
          return pool.send('PUT', `/core/products/prod-${1001 + (index % 12)}`, { json: { price: index / 100, stock: index } })
        default:
          return pool.send('POST', '/quantum/v1/entangle', { json: { particle_type: index % 8 === 3 ? 'electron' : 'photon' } })
      }
    }
    try {
      await Promise.all(Array.from({ length: 32 }, client))
    } finally {
      pool.close()
    }
    expect(statuses).toEqual({ 200: total / 4, 201: (total * 3) / 4 })
    for (const count of replicas().balancer.sent.values()) expect(count).toBeGreaterThanOrEqual(total / 3 - 1)

    const states = await Promise.all(replicas().replicas.map((replica) => stateOf(replica.url)))
    for (const state of states.slice(1)) expectSameState(state, states[0]!)
    const world = JSON.parse(states[0]!)
    expect(world.accounts.users).toHaveLength(before.accounts.users.length + total / 2)
    expect(world.quantum.pairs).toHaveLength(before.quantum.pairs.length + total / 4)
    // Each product is as one of the PUTs answered for it left it (the one applied last, wherever it arrived).
    for (const product of world.core.products.filter((item: { id: string }) => put.has(item.id))) expect(put.get(product.id)).toContainEqual(product)

    const fourth = await replicas().add()
    expectSameState(await stateOf(fourth.url), states[0]!)
  }, 180_000)
})

describe('start-up refusals: exit 1 with one line on stderr, no stack', () => {
  it('Redis unreachable', async () => {
    const port = await closedPort()
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--store', `redis://127.0.0.1:${port}`, ...REPLICA_ARGS], 30_000)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(lines(stderr)).toHaveLength(1)
    expect(stderr).toContain(`127.0.0.1:${port}`)
  })

  it('a second replica with another --seed than the first, which runs on', async () => {
    const redis = await startRedis()
    const first = await startCli(['--store', redis.url, ...REPLICA_ARGS], 30_000).catch(async (error: unknown) => {
      await redis.cleanup()
      throw error
    })
    try {
      const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--store', redis.url, '--seed', '2', '--clock', '2026-01-01T00:00:00Z', '--quiet'], 30_000)
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(lines(stderr)).toHaveLength(1)
      expect(stderr).toMatch(/other options \(seed\b/)
      expect(stderr).toContain(redis.url)
      expect((await fetch(`${first.url}/__mock/health`)).status).toBe(200)
    } finally {
      await first.stop()
      await redis.cleanup()
    }
  })

  it('joins a replica that gives a default explicitly, and one given its store in MULTI_AREA_MOCK_STORE', async () => {
    const redis = await startRedis()
    const started: Array<{ url: string; stop(): Promise<unknown> }> = []
    try {
      started.push(await startCli(['--store', redis.url, ...REPLICA_ARGS], 30_000))
      started.push(await startCli(['--journal-size', '1000', ...REPLICA_ARGS], 30_000, { MULTI_AREA_MOCK_STORE: redis.url }))
      const created = await fetch(`${started[0]!.url}/core/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'env.joined', email: 'env@example.com', password: 'correct-horse' }),
      })
      expect(created.status).toBe(201)
      expectSameState(await stateOf(started[1]!.url), await stateOf(started[0]!.url))
    } finally {
      for (const server of started) await server.stop()
      await redis.cleanup()
    }
  })
})

/** The lines of stderr, after checking that none is a stack frame (`    at foo (file.js:1:2)`). */
function lines(text: string): string[] {
  expect(text).not.toMatch(/^\s+at\s/m)
  return text.split('\n').filter((line) => line.trim() !== '')
}

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}
