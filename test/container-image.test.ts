/**
 * The image of the repository's Dockerfile (issue 47), built as written with
 * Debian's podman and run as a user runs it: published on a 127.0.0.1 port,
 * configured by MULTI_AREA_MOCK_* variables, reached with curl from this
 * machine. It answers every contract suite as the CLI does, stops on SIGTERM
 * with its state file saved, and refuses what the CLI refuses.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeAdminContract } from './contracts/admin.contract.js'
import { describeControlContract } from './contracts/control.contract.js'
import { describeCoreContract } from './contracts/core.contract.js'
import { describeGeneralContract } from './contracts/general.contract.js'
import { describeLedgerContract } from './contracts/ledger.contract.js'
import { describeQuantumContract } from './contracts/quantum.contract.js'
import { type Container, imageFromDockerfile, podman, runImage, TEST_IMAGE } from './support/podman.js'

const BUILD_TIMEOUT = 900_000

/** `curl -4 http://localhost:<port><path>` (localhost as IPv4: the port is published on 127.0.0.1 only): the status and body. */
async function curl(container: Container, path: string, headers: string[] = []): Promise<{ status: number; body: string }> {
  const args = ['-4', '-s', '-w', '\n%{http_code}', ...headers.flatMap((header) => ['-H', header]), `http://localhost:${container.port}${path}`]
  const { stdout } = await promisify(execFile)('curl', args, { encoding: 'utf8' })
  const at = stdout.lastIndexOf('\n')
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) }
}

beforeAll(async () => {
  await imageFromDockerfile()
}, BUILD_TIMEOUT)

describe('the image the Dockerfile builds', () => {
  it('runs the CLI as the unprivileged node user, on port 4000, with a health check', async () => {
    const [image] = JSON.parse((await podman(['image', 'inspect', TEST_IMAGE])).stdout) as [{ Config: Record<string, any>; Healthcheck: { Test: string[] } }]
    expect(image.Config.User).toBe('node')
    expect(Object.keys(image.Config.ExposedPorts)).toEqual(['4000/tcp'])
    expect(image.Config.Entrypoint).toEqual(['node', '/opt/multi-area-mock/node_modules/multi-area-mock/bin/multi-area-mock.js'])
    expect(image.Config.Cmd).toEqual(['serve', '--host', '0.0.0.0', '--port', '4000'])
    // Kept only in the docker format (podman build --format docker): an OCI image has no health check.
    expect(image.Healthcheck.Test.join(' ')).toContain("fetch('http://127.0.0.1:4000/__mock/health'")
  })
})

describe('a container of the image, configured by its environment', () => {
  let mock: Container
  beforeAll(async () => {
    mock = await runImage({ env: { MULTI_AREA_MOCK_SEED: '1', MULTI_AREA_MOCK_CLOCK: '2026-01-01T00:00:00Z', MULTI_AREA_MOCK_QUIET: '1' } })
  }, 60_000)
  afterAll(async () => {
    await mock?.remove()
  })

  it('answers the five areas and the control API to curl on this machine', async () => {
    const paths = ['/admin/api/v1.2/users', '/core/products/prod-1001', '/quantum/v1/status', '/general/data/1', '/ledger/v1/status', '/__mock/health', '/__mock/state']
    const statuses = await Promise.all(paths.map(async (path) => [path, (await curl(mock, path)).status]))
    expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(paths.map((path) => [path, 200])))
    expect(JSON.parse((await curl(mock, '/__mock/clock')).body)).toEqual({ now: '2026-01-01T00:00:00.000Z', fixed: true })
  })

  it('answers the Host a published port gets (localhost, any port), and refuses a DNS-rebinding name', async () => {
    expect((await curl(mock, '/core/users?limit=1')).status).toBe(200)
    expect((await curl(mock, '/core/users?limit=1', ['Host: localhost:8080'])).status).toBe(200)
    const rebinding = await curl(mock, '/core/users?limit=1', ['Host: evil.example:4000'])
    expect(rebinding.status).toBe(403)
    expect(JSON.parse(rebinding.body).error).toBe('host_not_allowed')
  })

  describeAdminContract(() => mock.url)
  describeCoreContract(() => mock.url)
  describeQuantumContract(() => mock.url)
  describeGeneralContract(() => mock.url)
  describeLedgerContract(() => mock.url)
  describeControlContract(() => mock.url)
})

describe('a container with a control token and a service name from its environment', () => {
  const token = 'container-token-4f1c9a'
  let mock: Container
  beforeAll(async () => {
    mock = await runImage({ env: { MULTI_AREA_MOCK_CONTROL_TOKEN: token, MULTI_AREA_MOCK_ALLOWED_HOST: 'mock,.svc.cluster.local' }, controlToken: token })
  }, 60_000)
  afterAll(async () => {
    await mock?.remove()
  })

  it('guards the control API with the token, which no command line shows', async () => {
    expect((await curl(mock, '/__mock/state')).status).toBe(401)
    expect((await curl(mock, '/__mock/state', [`Authorization: Bearer ${token}`])).status).toBe(200)
    const commandLine = (await podman(['exec', mock.id, 'cat', '/proc/1/cmdline'])).stdout.replaceAll('\0', ' ')
    expect(commandLine).toContain('multi-area-mock.js serve --host 0.0.0.0 --port 4000')
    expect(commandLine).not.toContain(token)
  })

  it("answers the service names it was given, and the image's health check passes with the token", async () => {
    expect((await curl(mock, '/core/users?limit=1', ['Host: mock:4000'])).status).toBe(200)
    expect((await curl(mock, '/core/users?limit=1', ['Host: mock.qa.svc.cluster.local'])).status).toBe(200)
    expect((await curl(mock, '/core/users?limit=1', ['Host: evil.example'])).status).toBe(403)
    // Exits non-zero (and podman() throws) when the check fails; no systemd here, so it runs when asked.
    await podman(['healthcheck', 'run', mock.id])
    expect((await podman(['inspect', mock.id, '--format', '{{.State.Health.Status}}'])).stdout.trim()).toBe('healthy')
  })

  it('says in its banner which names and origins it answers, and how to add one', async () => {
    const logs = await mock.logs()
    expect(logs).toMatch(
      /Answers requests for the hosts\s+localhost, IP addresses, mock, \.svc\.cluster\.local; a compose or Kubernetes service name needs --allowed-host <name> \(MULTI_AREA_MOCK_ALLOWED_HOST\)/,
    )
    expect(logs).toMatch(/Answers pages from the origins\s+http:\/\/localhost:\*, http:\/\/127\.0\.0\.1:\*; an app served elsewhere needs --cors-origin <origin>/)
  })
})

describe('docker stop (SIGTERM)', () => {
  const volume = `mam-test-state-${process.pid}`
  const started: Container[] = []
  afterAll(async () => {
    for (const container of started) await container.remove()
    await podman(['volume', 'rm', '-f', volume]).catch(() => undefined)
  })

  it('ends the server cleanly, the state file saved in the volume, and the next container starts from it', async () => {
    await podman(['volume', 'create', volume])
    const options = { env: { MULTI_AREA_MOCK_STATE_FILE: 'world.json', MULTI_AREA_MOCK_QUIET: '1' }, volumes: [`${volume}:/data`] }
    const first = await runImage(options)
    started.push(first)
    const created = await fetch(`${first.url}/admin/api/v1.2/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'kept.in.volume', email: 'kept@example.com', password: 'Passw0rd!' }),
    })
    expect(created.status).toBe(201)
    const stopping = performance.now()
    // 0, not 137: the CLI ended on SIGTERM itself, long before podman's SIGKILL.
    expect(await first.stop(20)).toBe(0)
    expect(performance.now() - stopping).toBeLessThan(10_000)
    const folder = (await podman(['volume', 'inspect', volume, '--format', '{{.Mountpoint}}'])).stdout.trim()
    expect(readFileSync(join(folder, 'world.json'), 'utf8')).toContain('"username":"kept.in.volume"')

    const second = await runImage(options)
    started.push(second)
    const users = (await (await fetch(`${second.url}/admin/api/v1.2/users?limit=100`)).json()) as { username: string }[] | { users: { username: string }[] }
    const names = (Array.isArray(users) ? users : users.users).map((user) => user.username)
    expect(names).toContain('kept.in.volume')
  }, 90_000)
})
