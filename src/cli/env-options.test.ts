import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { envOf, listValues } from './env-options.js'
import { buildProgram } from './program.js'

/** `serve`'s options as commander reads them from `argv` and the environment, the action replaced (nothing listens). */
async function serveValues(argv: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  const program = buildProgram('0.0.0-test')
  let values: Record<string, unknown> = {}
  serveCommand(program).action((given: Record<string, unknown>) => {
    values = given
  })
  await program.parseAsync(['node', 'multi-area-mock', ...argv])
  return values
}

function serveCommand(program: Command): Command {
  return program.commands.find((command) => command.name() === 'serve')!
}

/** What `serve` writes on stderr and throws for these variables. */
async function serveRefusal(env: Record<string, string>): Promise<{ message: string; stderr: string }> {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  const program = buildProgram('0.0.0-test')
  let stderr = ''
  const serve = serveCommand(program)
    .action(() => {})
    .configureOutput({ writeErr: (text) => (stderr += text) })
  serve.exitOverride()
  const error = (await program.parseAsync(['node', 'multi-area-mock', 'serve']).then(
    () => undefined,
    (caught: unknown) => caught,
  )) as Error | undefined
  expect(error, 'refused').toBeInstanceOf(Error)
  return { message: error!.message, stderr }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('serve options from MULTI_AREA_MOCK_* variables', () => {
  it('gives every option of serve a variable named after its flag, listed in --help', () => {
    const serve = serveCommand(buildProgram('0.0.0-test'))
    const help = serve.helpInformation().replace(/\s+/g, ' ')
    const options = serve.options.filter((option) => option.long !== '--help')
    expect(options.length).toBeGreaterThan(35)
    for (const option of options) {
      expect(option.envVar, option.flags).toBe(envOf(option.flags))
      expect(help, option.flags).toContain(`env: ${option.envVar})`)
    }
    // The secrets keep the names the docs have always given them.
    const secrets = Object.fromEntries(
      options.filter((option) => ['--control-token', '--jwt-secret', '--store'].includes(option.long!)).map((option) => [option.long, option.envVar]),
    )
    expect(secrets).toEqual({ '--control-token': 'MULTI_AREA_MOCK_CONTROL_TOKEN', '--jwt-secret': 'MULTI_AREA_MOCK_JWT_SECRET', '--store': 'MULTI_AREA_MOCK_STORE' })
  })

  it('lists every variable, with its flag, in docs/container.md', () => {
    const doc = readFileSync(new URL('../../docs/container.md', import.meta.url), 'utf8')
    const rows = [...doc.matchAll(/^\| `(MULTI_AREA_MOCK_[A-Z_]+)` \| `(--[a-z-]+)` \|$/gm)].map((match) => `${match[1]} ${match[2]}`)
    const options = serveCommand(buildProgram('0.0.0-test')).options.filter((option) => option.long !== '--help')
    expect(rows).toEqual(options.map((option) => `${option.envVar} ${option.long}`))
  })

  it('reads a value of each kind: numbers, durations, choices, secrets, lists, switches', async () => {
    const values = await serveValues(['serve'], {
      MULTI_AREA_MOCK_PORT: '4100',
      MULTI_AREA_MOCK_HOST: '0.0.0.0',
      MULTI_AREA_MOCK_SEED: '42',
      MULTI_AREA_MOCK_CLOCK: '2026-01-01T00:00:00Z',
      MULTI_AREA_MOCK_SCENARIO: 'pending-users',
      MULTI_AREA_MOCK_HEADERS_TIMEOUT: '5s',
      MULTI_AREA_MOCK_SIGNATURE_MODE: 'eip712',
      MULTI_AREA_MOCK_CONTROL_TOKEN: 'from-the-environment',
      MULTI_AREA_MOCK_ALLOWED_HOST: 'mock, .svc.cluster.local',
      MULTI_AREA_MOCK_CORS_ORIGIN: 'https://app.example.com,http://app.test:8080',
      MULTI_AREA_MOCK_ROOT: 'core,E',
      MULTI_AREA_MOCK_PROXY: 'admin=https://users.example.com/a,b,core=http://127.0.0.1:9000',
      MULTI_AREA_MOCK_FAULT: '[{"route":"/core/users","status":503},{"route":"/admin/**","status":403}]',
      MULTI_AREA_MOCK_LATENCY: '50..200',
      MULTI_AREA_MOCK_QUIET: 'true',
    })
    expect(values).toMatchObject({
      port: 4100,
      host: '0.0.0.0',
      seed: 42,
      clock: '2026-01-01T00:00:00Z',
      scenario: 'pending-users',
      headersTimeout: 5000,
      signatureMode: 'eip712',
      controlToken: 'from-the-environment',
      allowedHost: ['mock', '.svc.cluster.local'],
      corsOrigin: ['https://app.example.com', 'http://app.test:8080'],
      root: ['core', 'ledger'],
      proxy: { admin: 'https://users.example.com/a,b', core: 'http://127.0.0.1:9000' },
      latency: [50, 200],
      quiet: true,
    })
    expect((values.fault as { status: number }[]).map((rule) => rule.status)).toEqual([503, 403])
  })

  it('lets a flag on the command line win over its variable', async () => {
    const values = await serveValues(['serve', '--port', '0', '--allowed-host', 'flag.test'], { MULTI_AREA_MOCK_PORT: '4100', MULTI_AREA_MOCK_ALLOWED_HOST: 'env.test' })
    expect(values).toMatchObject({ port: 0, allowedHost: ['flag.test'] })
  })

  it('applies to the bare command too, serve being the default', async () => {
    expect(await serveValues(['--quiet'], { MULTI_AREA_MOCK_SEED: '7' })).toMatchObject({ seed: 7, quiet: true })
  })

  it.each([
    ['1', true],
    ['yes', true],
    ['ON', true],
    ['0', undefined],
    ['false', undefined],
    ['', undefined],
  ])('reads a switch by its value: MULTI_AREA_MOCK_QUIET=%j is %s', async (text, quiet) => {
    expect((await serveValues(['serve'], { MULTI_AREA_MOCK_QUIET: text })).quiet).toBe(quiet)
  })

  it('refuses a switch value it cannot read, naming the variable', async () => {
    const { message } = await serveRefusal({ MULTI_AREA_MOCK_WATCH: 'sometimes' })
    expect(message).toBe('MULTI_AREA_MOCK_WATCH="sometimes" is not a switch value: use 1 or 0 (true/false, yes/no, on/off).')
  })

  it("refuses a bad value with the flag's own message, naming the variable", async () => {
    const { stderr } = await serveRefusal({ MULTI_AREA_MOCK_PORT: '70000' })
    expect(stderr).toContain("value '70000' from env 'MULTI_AREA_MOCK_PORT' is invalid")
    expect(stderr).toContain('expected an integer from 0 to 65535')
  })

  it('checks each value of a list', async () => {
    const { stderr } = await serveRefusal({ MULTI_AREA_MOCK_ALLOWED_HOST: 'mock,mock.test:4000' })
    expect(stderr).toContain("value 'mock,mock.test:4000' from env 'MULTI_AREA_MOCK_ALLOWED_HOST' is invalid. expected a host name without a port")
  })

  it('never shows a bad secret, from the environment either', async () => {
    const { message, stderr } = await serveRefusal({ MULTI_AREA_MOCK_CONTROL_TOKEN: 'has a space' })
    expect(message).toBe(
      "option '--control-token <token>' (or MULTI_AREA_MOCK_CONTROL_TOKEN) is invalid (value not shown): expected 1 to 4096 printable ASCII characters without spaces.",
    )
    expect(`${message}${stderr}`).not.toContain('has a space')
  })
})

describe('listValues', () => {
  it('splits at commas, trimmed, and keeps a comma that starts no value', () => {
    expect(listValues('a')).toEqual(['a'])
    expect(listValues(' mock , mock.test ')).toEqual(['mock', 'mock.test'])
    expect(listValues('admin=https://a/x,y,core=http://b', /^\s*[A-Za-z]+=/)).toEqual(['admin=https://a/x,y', 'core=http://b'])
  })
})
