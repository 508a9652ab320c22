/**
 * The one-machine balancer configurations of docs/replicas.md, run as written
 * with Debian's nginx and haproxy in front of three replicas: only the ports
 * are swapped for free ones (4000 for the balancer, 4001 to 4003 for the
 * replicas). Requests go round robin, a write through the balancer is seen by
 * every replica, and a replica that dies is skipped.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from './support/free-port.js'
import { type ReplicaSet, startReplicas } from './support/replicas.js'
import { requireBinary } from './support/system-binary.js'

const DOC = readFileSync(fileURLToPath(new URL('../docs/replicas.md', import.meta.url)), 'utf8')
const NGINX = '/usr/sbin/nginx'
const HAPROXY = '/usr/sbin/haproxy'

/** The fenced block of `language` whose first line is `firstLine`. */
function block(language: string, firstLine: string): string {
  const blocks = [...DOC.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!)
  const found = blocks.filter((text) => text.startsWith(`${firstLine}\n`))
  expect(found, `one ${language} block starting "${firstLine}" in docs/replicas.md`).toHaveLength(1)
  return found[0]!
}

/** The block with its ports swapped: 4000 for the balancer's, 4001 to 4003 for the replicas'. */
function withPorts(text: string, balancer: number, replicas: readonly string[]): string {
  let swapped = text.replaceAll('127.0.0.1:4000', `127.0.0.1:${balancer}`)
  replicas.forEach((url, index) => {
    swapped = swapped.replaceAll(`127.0.0.1:${4001 + index}`, new URL(url).host)
  })
  expect(swapped).not.toMatch(/127\.0\.0\.1:400\d\b/)
  return swapped
}

interface Balancer {
  url: string
  process: ChildProcess
  output(): string
}

async function run(command: string, args: string[], port: number): Promise<Balancer> {
  let output = ''
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const until = Date.now() + 15_000
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}: ${output}`)
    const status = await fetch(`${url}/__mock/health`).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) return { url, process: child, output: () => output }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`${command} did not answer on ${url} within 15 s: ${output}`)
}

async function stop(balancer: Balancer | undefined): Promise<void> {
  if (!balancer || balancer.process.exitCode !== null) return
  const exited = new Promise((resolve) => balancer.process.once('exit', resolve))
  balancer.process.kill('SIGTERM')
  await exited
}

interface JournalEntry {
  path: string
  replica?: string
}

const BALANCERS = [
  {
    name: 'nginx',
    binary: NGINX,
    debianPackage: 'nginx-light',
    async start(dir: string, port: number, replicas: readonly string[]): Promise<Balancer> {
      const site = withPorts(block('nginx', '# /etc/nginx/conf.d/multi-area-mock.conf: three replicas on this machine'), port, replicas)
      mkdirSync(join(dir, 'conf.d'))
      writeFileSync(join(dir, 'conf.d', 'multi-area-mock.conf'), site)
      // What Debian's /etc/nginx/nginx.conf gives the file, with every path in the test's folder.
      writeFileSync(
        join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events {}
http {
    access_log off;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/conf.d/*.conf;
}
`,
      )
      return run(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], port)
    },
  },
  {
    name: 'haproxy',
    binary: HAPROXY,
    debianPackage: 'haproxy',
    async start(dir: string, port: number, replicas: readonly string[]): Promise<Balancer> {
      const added = withPorts(block('haproxy', '# Added to /etc/haproxy/haproxy.cfg: three replicas on this machine'), port, replicas)
      // The timeouts of the defaults section of Debian's /etc/haproxy/haproxy.cfg; its logging and chroot need the service's setup.
      const defaults = 'defaults\n    mode http\n    timeout connect 5000\n    timeout client  50000\n    timeout server  50000\n\n'
      writeFileSync(join(dir, 'haproxy.cfg'), `${defaults}${added}`)
      return run(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], port)
    },
  },
] as const

describe.each(BALANCERS)('docs/replicas.md: $name in front of three replicas on one machine', (balancerKind) => {
  let set: ReplicaSet
  let balancer: Balancer | undefined
  const dir = mkdtempSync(join(tmpdir(), `mam-${balancerKind.name}-`))

  beforeAll(async () => {
    requireBinary(balancerKind.binary, balancerKind.debianPackage)
    set = await startReplicas(3)
    balancer = await balancerKind.start(
      dir,
      await freePort(),
      set.replicas.map((replica) => replica.url),
    )
  }, 90_000)
  afterAll(async () => {
    await stop(balancer)
    await set?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('sends requests to each replica in turn, and a write through it reaches every replica', async () => {
    const created = await fetch(`${balancer!.url}/admin/api/v1.2/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `through.${balancerKind.name}`, email: `${balancerKind.name}@example.com`, password: 'Passw0rd!' }),
    })
    expect(created.status, balancer!.output()).toBe(201)
    for (let index = 0; index < 12; index++) {
      const response = await fetch(`${balancer!.url}/core/products/prod-1001`)
      expect(response.status).toBe(200)
      expect(((await response.json()) as { id: string }).id).toBe('prod-1001')
    }
    const journal = (await (await fetch(`${balancer!.url}/__mock/requests?path=/core/products/prod-1001`)).json()) as JournalEntry[] | { entries: JournalEntry[] }
    const entries = Array.isArray(journal) ? journal : journal.entries
    expect(new Set(entries.map((entry) => entry.replica)).size).toBe(3)
    for (const replica of set.replicas) {
      const login = await fetch(`${replica.url}/general/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `through.${balancerKind.name}`, password: 'Passw0rd!' }),
      })
      expect(login.status).toBe(200)
    }
  })

  it('skips a replica that died', async () => {
    const victim = set.replicas[1]!
    victim.process.kill('SIGKILL')
    await new Promise((resolve) => victim.process.once('exit', resolve))
    // HAProxy takes it out after two failed checks (inter 2s fall 2); nginx at the first refused connection.
    await new Promise((resolve) => setTimeout(resolve, balancerKind.name === 'haproxy' ? 5_000 : 0))
    const statuses = []
    for (let index = 0; index < 9; index++) statuses.push((await fetch(`${balancer!.url}/core/products/prod-1001`)).status)
    expect(statuses).toEqual(Array(9).fill(200))
  }, 30_000)
})
