/**
 * The container examples run as written (issue 47), with Debian's podman,
 * podman-compose and the image of the repository's Dockerfile:
 * examples/compose/ (one simulator; three replicas, Redis and nginx) and the
 * Kubernetes manifest of docs/replicas.md (examples/kubernetes/replicas.yaml)
 * through `podman kube play`. Published ports bind 127.0.0.1 only; every
 * container, pod, volume, network and secret made here is removed.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from './support/free-port.js'
import { command, imageFromDockerfile, podman, standInImages, TEST_IMAGE } from './support/podman.js'
import { requireBinary } from './support/system-binary.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const COMPOSE = '/usr/bin/podman-compose'
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

beforeAll(async () => {
  await imageFromDockerfile()
  await standInImages()
}, 900_000)

/** GET through the published port until it answers 200 (replicas restart until Redis listens): the body. */
async function until200(url: string, timeoutMs = 60_000): Promise<string> {
  const end = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < end) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      last = `${response.status} ${await response.text()}`
      if (response.status === 200) return last.slice(4)
    } catch (error) {
      last = String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms; last: ${last.slice(0, 300)}`)
}

/** A script run by `node -e` inside a container: fetch from the container's own network, print status and body (0 and why, when nothing answered). */
const fetchInside = (url: string, init: Record<string, unknown> = {}) =>
  `fetch(${JSON.stringify(url)}, ${JSON.stringify(init)}).then(async (r) => console.log(r.status + ' ' + (await r.text())), (e) => console.log('0 ' + e.message + ' ' + (e.cause?.code ?? e.cause?.message ?? '')))`

/** `podman exec` of `fetchInside`: the status and body. */
async function fetchIn(container: string, url: string, init: Record<string, unknown> = {}): Promise<{ status: number; body: string }> {
  const { stdout } = await podman(['exec', container, 'node', '-e', fetchInside(url, init)])
  const text = stdout.trimEnd()
  return { status: Number(text.slice(0, text.indexOf(' '))), body: text.slice(text.indexOf(' ') + 1) }
}

/**
 * `fetchIn` of a GET until it is answered at all (a name the network's DNS
 * server has just learnt may not resolve at once on a loaded machine).
 */
async function answeredIn(container: string, url: string): Promise<{ status: number; body: string }> {
  const end = Date.now() + 15_000
  for (;;) {
    const reply = await fetchIn(container, url)
    if (reply.status !== 0 || Date.now() > end) return reply
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** One podman-compose project of an example folder, on its own name and port; down removes it all. */
function composeProject(folder: string) {
  const project = `mam-test-${folder.replaceAll('/', '-')}-${process.pid}`
  const cwd = join(ROOT, 'examples', folder)
  let port = 0
  const env = () => ({ MOCK_IMAGE: TEST_IMAGE, MOCK_PORT: String(port) })
  return {
    project,
    get url() {
      return `http://127.0.0.1:${port}`
    },
    async up() {
      requireBinary(COMPOSE, 'podman-compose')
      port = await freePort()
      await command(COMPOSE, ['-p', project, 'up', '-d'], { cwd, env: env(), timeoutMs: 180_000 })
    },
    async down() {
      if (port === 0) return
      await command(COMPOSE, ['-p', project, 'down', '-v'], { cwd, env: env(), timeoutMs: 120_000 }).catch(() => undefined)
      // podman-compose 1.0.3 leaves the project's network behind.
      await podman(['network', 'rm', '-f', `${project}_default`]).catch(() => undefined)
      const { stdout } = await podman(['ps', '-a', '-q', '--filter', `label=io.podman.compose.project=${project}`])
      expect(stdout.trim(), 'containers left by podman-compose down').toBe('')
    },
    container: (service: string) => `${project}_${service}_1`,
  }
}

describe('examples/compose/compose.yaml: one simulator', () => {
  const compose = composeProject('compose')
  beforeAll(() => compose.up(), 240_000)
  afterAll(() => compose.down(), 120_000)

  it('serves this machine on the published 127.0.0.1 port, and the other services by its name', async () => {
    expect(JSON.parse(await until200(`${compose.url}/__mock/health`)).status).toBe('ok')
    const ports = (await podman(['port', compose.container('mock')])).stdout.trim()
    expect(ports).toBe(`4000/tcp -> 127.0.0.1:${new URL(compose.url).port}`)
    // Another container of the project's network calls it by its service name.
    const byName = await answeredIn(compose.container('mock'), 'http://mock:4000/core/products/prod-1001')
    expect(byName.status, byName.body).toBe(200)
    expect(JSON.parse(byName.body).id).toBe('prod-1001')
  })

  it('keeps the world in its volume across a stop (SIGTERM) and a start', async () => {
    const created = await fetch(`${compose.url}/admin/api/v1.2/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'kept.by.compose', email: 'kept@example.com', password: 'Passw0rd!' }),
    })
    expect(created.status).toBe(201)
    await podman(['restart', compose.container('mock')])
    expect(await until200(`${compose.url}/admin/api/v1.2/users?limit=100`)).toContain('"kept.by.compose"')
  }, 60_000)
})

describe('examples/compose/replicas/: three replicas and Redis behind nginx', () => {
  const compose = composeProject('compose/replicas')
  beforeAll(() => compose.up(), 240_000)
  afterAll(() => compose.down(), 120_000)

  it("uses docs/replicas.md's nginx location settings", () => {
    const location = (text: string) => /\n {4}location \/ \{[\s\S]*?\n {4}\}/.exec(text)?.[0]
    const docs = [...read('docs/replicas.md').matchAll(/```nginx\n([\s\S]*?)```/g)].map((match) => match[1]!)
    const forMachines = docs.find((text) => text.startsWith('# /etc/nginx/conf.d/multi-area-mock.conf\n'))
    expect(location(read('examples/compose/replicas/nginx.conf'))).toBe(location(forMachines!))
  })

  it('agrees byte for byte on every replica after a write through nginx', async () => {
    await until200(`${compose.url}/__mock/health`)
    const created = await fetch(`${compose.url}/admin/api/v1.2/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'through.nginx', email: 'nginx@example.com', password: 'Passw0rd!' }),
    })
    expect(created.status).toBe(201)
    // Through nginx, round robin: each read may be another replica's, and all show the write.
    const throughNginx = new Set<string>()
    for (let index = 0; index < 6; index++) throughNginx.add(await until200(`${compose.url}/__mock/state`))
    expect(throughNginx.size).toBe(1)
    const state = [...throughNginx][0]!
    expect(state).toContain('"through.nginx"')
    // Each replica asked on its own, from inside the network.
    for (const replica of ['mock-1', 'mock-2', 'mock-3']) {
      const own = await fetchIn(compose.container(replica), 'http://127.0.0.1:4000/__mock/state')
      expect([replica, own.status, own.status === 200 ? sha256(own.body) : own.body]).toEqual([replica, 200, sha256(state)])
    }
    // Every replica answered some of them: the shared journal names each.
    for (let index = 0; index < 9; index++) await until200(`${compose.url}/core/products/prod-1001`)
    const journal = JSON.parse(await until200(`${compose.url}/__mock/requests?path=/core/products/prod-1001`)) as { entries: { replica?: string }[] }
    expect(new Set(journal.entries.map((entry) => entry.replica)).size).toBe(3)
    // The other services reach the balancer by its name, which the replicas allow.
    const byName = await answeredIn(compose.container('mock-1'), 'http://mock/core/products/prod-1001')
    expect(byName.status, byName.body).toBe(200)
  }, 120_000)
})

describe('examples/kubernetes/replicas.yaml through podman kube play', () => {
  const manifest = read('examples/kubernetes/replicas.yaml')
  const image = /image: (registry\.example\.internal\/\S+)/.exec(manifest)?.[1]
  const network = `mam-test-kube-${process.pid}`
  const folder = mkdtempSync(join(tmpdir(), 'mam-kube-'))
  const played = join(folder, 'replicas.yaml')
  const token = 'kube-token-93be1f'
  const pods = ['mock-pod-0', 'mock-pod-1', 'mock-pod-2']

  it('is the manifest docs/replicas.md shows', () => {
    const blocks = [...read('docs/replicas.md').matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!)
    expect(blocks).toContain(manifest)
  })

  describe('played', () => {
    beforeAll(async () => {
      expect(image).toBeDefined()
      await podman(['tag', TEST_IMAGE, image!])
      // A Secret as podman's secretKeyRef reads one: each key's value in base64.
      writeFileSync(join(folder, 'secret.json'), JSON.stringify({ token: Buffer.from(token).toString('base64') }))
      await podman(['secret', 'create', 'mock-control-token', join(folder, 'secret.json')])
      await podman(['network', 'create', network])
      // What podman 4.3 lacks, and nothing else: it publishes a containerPort on every interface of
      // the host when no hostPort is given (Kubernetes publishes nothing), so the ports go; and it has no
      // Services, so the replicas reach Redis by the name of the pod it makes for the Deployment.
      const adapted = manifest.replace(/\n *ports: \[\{ containerPort: \d+ \}\]/g, '').replaceAll('redis://redis:6379', 'redis://redis-pod-0:6379')
      expect(adapted).not.toContain('containerPort')
      writeFileSync(played, adapted)
      await podman(['kube', 'play', '--network', network, played], { timeoutMs: 180_000 })
    }, 240_000)
    afterAll(async () => {
      await podman(['kube', 'down', played]).catch(() => undefined)
      await podman(['volume', 'rm', '-f', 'redis-data']).catch(() => undefined)
      await podman(['secret', 'rm', 'mock-control-token']).catch(() => undefined)
      await podman(['network', 'rm', '-f', network]).catch(() => undefined)
      if (image) await podman(['rmi', image]).catch(() => undefined)
      rmSync(folder, { recursive: true, force: true })
      const { stdout } = await podman(['pod', 'ps', '-q', '--filter', 'name=^(mock|redis)-pod-'])
      expect(stdout.trim(), 'pods left by podman kube down').toBe('')
    }, 120_000)

    it("makes three replicas that pass the manifest's readiness probe, and share a write", async () => {
      const probe = /command:\n\s+- node\n\s+- -e\n\s+- >-\n\s+(fetch[^\n]+)\n\s+(\.then[^\n]+)/.exec(manifest)
      expect(probe).not.toBeNull()
      const script = `${probe![1]} ${probe![2]}`
      for (const pod of pods) {
        const end = Date.now() + 60_000
        while (
          (await podman(['exec', `${pod}-mock`, 'node', '-e', script]).then(
            () => true,
            () => false,
          )) === false
        ) {
          if (Date.now() > end) throw new Error(`${pod} never passed the readiness probe: ${(await podman(['logs', `${pod}-mock`])).stderr}`)
          await new Promise((resolve) => setTimeout(resolve, 500))
        }
      }
      const auth = { authorization: `Bearer ${token}` }
      const created = await fetchIn('mock-pod-0-mock', 'http://127.0.0.1:4000/admin/api/v1.2/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'through.kube', email: 'kube@example.com', password: 'Passw0rd!' }),
      })
      expect(created.status).toBe(201)
      const states = await Promise.all(pods.map((pod) => fetchIn(`${pod}-mock`, 'http://127.0.0.1:4000/__mock/state', { headers: auth })))
      expect(states.map((state) => state.status)).toEqual([200, 200, 200])
      expect(new Set(states.map((state) => sha256(state.body))).size).toBe(1)
      expect(states[2]!.body).toContain('"through.kube"')
      // Without the Secret's token, the control API refuses.
      expect((await fetchIn('mock-pod-1-mock', 'http://127.0.0.1:4000/__mock/state')).status).toBe(401)
    }, 120_000)
  })
})
