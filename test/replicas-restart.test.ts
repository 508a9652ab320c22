/**
 * What a Redis restart keeps of replicas' worlds (docs/replicas.md, "Redis
 * restarted"): every world, from the append-only file, and none of the request
 * journals, which are kept out of it on purpose.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type ReplicaSet, startReplicas } from './support/replicas.js'

let set: ReplicaSet | undefined
afterEach(async () => {
  await set?.close()
  set = undefined
})

async function healthy(url: string): Promise<void> {
  const until = Date.now() + 20_000
  while (Date.now() < until) {
    const status = await fetch(`${url}/__mock/health`).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not become healthy again within 20 s`)
}

const paths = async (url: string): Promise<string[]> => {
  const body = (await (await fetch(`${url}/__mock/requests`)).json()) as { path: string }[] | { entries: { path: string }[] }
  return (Array.isArray(body) ? body : body.entries).map((entry) => entry.path)
}

describe('Redis restarted under two replicas', () => {
  it('keeps every world and empties every journal', async () => {
    set = await startReplicas(2)
    const [first, second] = [set.replicas[0]!, set.replicas[1]!]
    const created = await fetch(`${first.url}/admin/api/v1.2/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'kept.across', email: 'kept@example.com', password: 'Passw0rd!' }),
    })
    expect(created.status).toBe(201)
    await fetch(`${second.url}/core/products/prod-1001`)
    expect(await paths(first.url)).toEqual(expect.arrayContaining(['/admin/api/v1.2/users', '/core/products/prod-1001']))

    await set.redis.stop()
    await set.redis.start()
    await Promise.all([healthy(first.url), healthy(second.url)])

    for (const replica of [first, second]) {
      const login = await fetch(`${replica.url}/general/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'kept.across', password: 'Passw0rd!' }),
      })
      expect(login.status).toBe(200)
    }
    const after = await paths(second.url)
    expect(after).not.toContain('/admin/api/v1.2/users')
    expect(after).not.toContain('/core/products/prod-1001')
  }, 90_000)
})
