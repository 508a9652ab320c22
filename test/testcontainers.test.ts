/**
 * `multi-area-mock/testcontainers` (issue 47) against the image the Dockerfile
 * builds, through podman's Docker-compatible API (`podman system service`, as
 * DOCKER_HOST): Ryuk off (its image cannot be pulled here, and each test
 * removes what it started), Testcontainers pointed at 127.0.0.1 and the ports
 * published there only.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { StartedTestContainer } from 'testcontainers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MultiAreaMockContainer, type StartedMultiAreaMockContainer } from '../src/testcontainers/index.js'
import { imageFromDockerfile, PODMAN, podman, podmanEnv, standInImages, TEST_IMAGE } from './support/podman.js'

/** Every container this file starts carries it, so afterAll removes them whatever failed. */
const LABEL = { 'multi-area-mock-test': `testcontainers-${process.pid}` }
const CLOCK = '2026-01-01T00:00:00Z'
const folder = mkdtempSync(join(tmpdir(), 'mam-testcontainers-'))
const socket = join(folder, 'podman.sock')
let service: ChildProcess | undefined
const saved = { ...process.env }

/** `GET /_ping` on the API socket: podman's service answers once it is up. */
function ping(): Promise<boolean> {
  return new Promise((resolve) => {
    const sent = request({ socketPath: socket, path: '/_ping', timeout: 1_000 }, (response) => {
      response.resume()
      resolve(response.statusCode === 200)
    })
    sent.once('error', () => resolve(false))
    sent.end()
  })
}

beforeAll(async () => {
  await imageFromDockerfile()
  await standInImages()
  service = spawn(PODMAN, ['system', 'service', '--time=0', `unix://${socket}`], { env: podmanEnv(), stdio: 'ignore' })
  const until = Date.now() + 20_000
  while (!(existsSync(socket) && (await ping()))) {
    if (Date.now() > until || service.exitCode !== null) throw new Error(`podman system service did not answer on ${socket} within 20 s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  // Read by testcontainers when it first reaches the runtime, in this test file's own process.
  process.env.DOCKER_HOST = `unix://${socket}`
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true'
  process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1'
}, 900_000)

afterAll(async () => {
  const { stdout } = await podman(['ps', '-a', '-q', '--filter', `label=multi-area-mock-test=${LABEL['multi-area-mock-test']}`])
  const left = stdout.split('\n').filter(Boolean)
  if (left.length > 0) await podman(['rm', '-f', '-t', '0', ...left])
  if (service && service.exitCode === null) {
    const exited = new Promise((resolve) => service!.once('exit', resolve))
    service.kill('SIGTERM')
    await exited
  }
  process.env = saved
  rmSync(folder, { recursive: true, force: true })
  // Left by nothing: a test that failed half-way must not leave containers for the next run.
  expect(left).toEqual([])
}, 60_000)

/** Whether podman still has the container, stopped or not. */
async function exists(id: string): Promise<boolean> {
  return (await podman(['ps', '-a', '-q', '--no-trunc', '--filter', `id=${id}`])).stdout.trim() !== ''
}

describe('MultiAreaMockContainer', () => {
  it('starts the image with a scenario, seed, clock and control token, published on 127.0.0.1', async () => {
    const mock = await new MultiAreaMockContainer(TEST_IMAGE).withLabels(LABEL).withScenario('empty').withSeed(42).withClock(CLOCK).withControlToken('tc-token-7d2e').start()
    try {
      expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const bindings = (await podman(['inspect', mock.getId(), '--format', '{{json .HostConfig.PortBindings}}'])).stdout
      expect(JSON.parse(bindings)).toEqual({ '4000/tcp': [{ HostIp: '127.0.0.1', HostPort: String(new URL(mock.baseUrl).port) }] })
      const users = await fetch(`${mock.baseUrl}/core/users`)
      expect([users.status, users.headers.get('x-total-count')]).toEqual([200, '0'])
      expect((await fetch(`${mock.baseUrl}/__mock/state`)).status).toBe(401)
      expect(await mock.control.clock.now()).toEqual({ now: '2026-01-01T00:00:00.000Z', fixed: true })
      expect((await mock.control.state()).seed).toBe(42)
    } finally {
      await mock.stop()
    }
    expect(await exists(mock.getId())).toBe(false)
  }, 60_000)

  it('gives a control client of the default world and of isolated worlds, as createMockWorld does', async () => {
    const mock = await new MultiAreaMockContainer(TEST_IMAGE).withLabels(LABEL).withSeed(1).withClock(CLOCK).start()
    try {
      await mock.control.faults.add({ route: '/core/users', status: 503 })
      expect((await fetch(`${mock.baseUrl}/core/users`)).status).toBe(503)
      expect((await mock.control.journal.find({ path: '/core/users' })).map((entry) => entry.status)).toEqual([503])
      await mock.control.reset()
      expect((await fetch(`${mock.baseUrl}/core/users`)).status).toBe(200)
      const world = await mock.createWorld({ scenario: 'empty' })
      expect((await world.fetch('/core/users')).headers.get('x-total-count')).toBe('0')
      await world.clock.advance('2h')
      expect((await world.clock.now()).now).toBe('2026-01-01T02:00:00.000Z')
      expect((await mock.control.clock.now()).now).toBe('2026-01-01T00:00:00.000Z')
      expect(await world.delete()).toBe(true)
    } finally {
      await mock.stop()
    }
  }, 60_000)

  it('loads a scenario object, or a scenario file from this machine, copied into the container', async () => {
    const file = join(folder, 'team.json')
    writeFileSync(file, JSON.stringify({ accounts: { users: [{ username: 'from.file', email: 'file@example.com', status: 'active' }] } }))
    const fromObject = new MultiAreaMockContainer(TEST_IMAGE)
      .withLabels(LABEL)
      .withScenario({ accounts: { users: [{ username: 'from.object', email: 'object@example.com', status: 'active' }] } }, 'team-object')
      .start()
    const fromFile = new MultiAreaMockContainer(TEST_IMAGE).withLabels(LABEL).withScenario(file).start()
    const started = await Promise.all([fromObject, fromFile])
    try {
      for (const [mock, username, scenario] of [
        [started[0], 'from.object', 'team-object'],
        [started[1], 'from.file', 'team'],
      ] as const) {
        const names = ((await (await fetch(`${mock.baseUrl}/admin/api/v1.2/users?limit=100`)).json()) as { username: string }[]).map((user) => user.username)
        expect(names).toContain(username)
        expect(await logsOf(mock)).toContain(`(scenario "${scenario}"`)
      }
    } finally {
      await Promise.all(started.map((mock) => mock.stop()))
    }
  }, 60_000)

  it('shares every world with another container on the same Redis (withStore)', async () => {
    const { GenericContainer, Network, Wait } = await import('testcontainers')
    const network = await new Network().start()
    const started: StartedTestContainer[] = []
    try {
      started.push(
        await new GenericContainer('docker.io/library/redis:7.2')
          .withLabels(LABEL)
          .withNetwork(network)
          .withNetworkAliases('redis')
          .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
          .start(),
      )
      const replica = () => new MultiAreaMockContainer(TEST_IMAGE).withLabels(LABEL).withNetwork(network).withSeed(7).withStore('redis://redis:6379').start()
      const [first, second] = (await Promise.all([replica(), replica()])) as [StartedMultiAreaMockContainer, StartedMultiAreaMockContainer]
      started.push(first, second)
      const created = await fetch(`${first.baseUrl}/admin/api/v1.2/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'shared.through.redis', email: 'shared@example.com', password: 'Passw0rd!' }),
      })
      expect(created.status).toBe(201)
      const [one, two] = await Promise.all([first, second].map(async (mock) => (await fetch(`${mock.baseUrl}/__mock/state`)).text()))
      expect(two).toBe(one)
      expect(two).toContain('shared.through.redis')
    } finally {
      for (const container of started.reverse()) await container.stop()
      await network.stop()
    }
  }, 90_000)

  it('fails at once, with the reason, when the server refuses its options', async () => {
    const starting = new MultiAreaMockContainer(TEST_IMAGE).withLabels(LABEL).withSeed(-1).start()
    // The container's last lines, as Testcontainers reports an exit: the CLI's own one-line refusal.
    await expect(starting).rejects.toThrow(/value '-1' from env 'MULTI_AREA_MOCK_SEED' is invalid\. expected an integer from 0 to 4294967295/)
  }, 60_000)

  it('is the package entry multi-area-mock/testcontainers, as the build ships it', async () => {
    const script = "const entry = await import('multi-area-mock/testcontainers'); console.log(Object.keys(entry).sort().join(','))"
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(stdout.trim()).toBe('DEFAULT_MULTI_AREA_MOCK_IMAGE,MULTI_AREA_MOCK_PORT,MockServerError,MockWorld,MultiAreaMockContainer,StartedMultiAreaMockContainer')
  })
})

/** What a started container printed so far. */
async function logsOf(container: StartedTestContainer): Promise<string> {
  const stream = await container.logs()
  let text = ''
  stream.on('data', (chunk: Buffer | string) => (text += chunk.toString()))
  await new Promise((resolve) => setTimeout(resolve, 300))
  stream.destroy()
  return text
}
