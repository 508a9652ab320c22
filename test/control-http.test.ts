import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeControlContract } from './contracts/control.contract.js'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { call } from './support/http.js'

// The control plane suite that also runs in-process (src/simulator/control/control.test.ts),
// here against the real CLI server.
describe('CLI server', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet'])
  })
  afterAll(async () => {
    await server?.stop()
  })

  describeControlContract(() => server.url)
})

describe('serve --journal-size, --journal-body-limit, --fault, --latency, --max-worlds, --world-idle', () => {
  let server: CliServer
  const url = (path: string) => `${server.url}${path}`
  beforeAll(async () => {
    server = await startCli([
      '--clock',
      '2026-01-01T00:00:00Z',
      '--journal-size',
      '3',
      '--journal-body-limit',
      '40',
      '--latency',
      '1..3',
      '--fault',
      'GET /core/products/* drop',
      '--fault',
      '{"method":"POST","route":"/core/users","status":503,"times":1}',
      '--max-worlds',
      '2',
      '--world-idle',
      '400ms',
    ])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('start with the rules given, --latency first, and say so in the banner', async () => {
    expect(server.stdout()).toMatch(/3 fault rules in force\s+http:\/\/127\.0\.0\.1:\d+\/__mock\/faults/)
    expect((await call(url('/__mock/faults'))).body.rules).toEqual([
      { latency: [1, 3], fired: 0 },
      { method: 'GET', route: '/core/products/*', drop: true, fired: 0 },
      { method: 'POST', route: '/core/users', status: 503, times: 1, fired: 0 },
    ])
  })

  it('drop closes the socket without a byte of answer, logs it, and the server lives on', async () => {
    const received = await new Promise<string>((resolve) => {
      let data = ''
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => socket.write('GET /core/products/prod-1001 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'))
      socket.setEncoding('latin1').on('data', (chunk: string) => (data += chunk))
      socket.on('error', () => undefined)
      socket.on('close', () => resolve(data))
    })
    expect(received).toBe('')
    expect(server.stdout()).toMatch(/GET \/core\/products\/prod-1001 dropped [\d.]+ms/)
    expect((await call(url('/core/users'))).status).toBe(200)
  })

  it('keep only --journal-size entries', async () => {
    for (let offset = 0; offset < 5; offset++) await call(url(`/core/users?offset=${offset}`))
    const entries = (await call(url('/__mock/requests'))).body.entries
    expect(entries.map((entry: { url: string }) => entry.url.slice(-8))).toEqual(['offset=2', 'offset=3', 'offset=4'])
    // --journal-body-limit: 40 characters of the answer, then how long it was.
    expect(entries[2].responseBody).toMatch(/^.{40}… \[truncated: \d+ characters in all\]$/)
    expect(entries[0].fault).toMatch(/^rule 1: [123]ms$/)
  })

  it('allow --max-worlds worlds and remove them after --world-idle', async () => {
    const first = (await call(url('/__mock/worlds'), { method: 'POST', json: {} })).body.id
    expect((await call(url('/__mock/worlds'), { method: 'POST', json: {} })).status).toBe(201)
    const third = await call(url('/__mock/worlds'), { method: 'POST', json: {} })
    expect(third.status).toBe(409)
    expect(third.body).toMatchObject({ error: 'conflict', limit: 2 })
    await new Promise((resolve) => setTimeout(resolve, 900))
    expect((await call(url('/core/users'), { headers: { 'x-mock-world': first } })).status).toBe(404)
    expect((await call(url('/__mock/worlds'))).body).toMatchObject({ max: 2, idleMs: 400, worlds: [] })
  })
})

describe('bad control flags exit non-zero with one line naming the problem', () => {
  it.each([
    [['--fault', 'POST /core/users 302'], /--fault.*0\.status: must be an HTTP error status from 400 to 599/],
    [['--fault', 'POST /x sometimes'], /Unknown part "sometimes"/],
    [['--fault', '@/no/such/faults.json'], /cannot read \/no\/such\/faults\.json: ENOENT/],
    [['--latency', '200..50'], /--latency.*minimum comes first/],
    [['--journal-size', '-1'], /--journal-size.*integer of 0 or more/],
    [['--journal-body-limit', 'all'], /--journal-body-limit.*integer of 0 or more/],
    [['--world-idle', 'soon'], /--world-idle.*Invalid duration "soon"/],
  ])('serve %j', async (args, message) => {
    const { code, stderr } = await runCli(['serve', '--port', '0', ...args])
    expect(code).not.toBe(0)
    expect(stderr).toMatch(message)
    expect(stderr).not.toMatch(/^\s+at /m)
  })
})
