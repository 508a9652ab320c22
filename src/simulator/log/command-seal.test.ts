import { describe, expect, it } from 'vitest'
import type { Command } from './command.js'
import { documentSeeds, MAX_COMMAND_PASSWORDS, passwordSlots, refuseManyPasswords, sealCommand } from './command-seal.js'

const seal = async (password: string) => `sealed(${password.length})`
const plain: Command = { world: null, method: 'PUT', url: 'http://sim.test/x', body: '{ "a" : 1 }', at: 0 }

describe('sealCommand', () => {
  it('keeps a body without a password byte for byte', async () => {
    expect(await sealCommand(plain, false, seal)).toBe(plain)
  })

  it("seals an area write's password, at the top only", async () => {
    const sealed = await sealCommand({ ...plain, body: JSON.stringify({ username: 'ada', password: 'p1-long-enough', data: { password: 'kept as given' } }) }, false, seal)
    const body = JSON.parse(sealed.body!)
    expect(body.password).toMatch(/^sealed:[0-9a-f-]{36}$/)
    expect(sealed.sealed).toEqual({ [body.password]: 'sealed(14)' })
    // Nested data is what the route keeps as given, not a password the world hashes.
    expect(body.data).toEqual({ password: 'kept as given' })
  })

  it('gives the same body from the validated input at hand as from its text, and leaves that input as it was', async () => {
    const input = { username: 'ada', password: 'p1-long-enough', amount: 10n, data: { password: 'kept as given' }, at: new Date(0) }
    const text = JSON.stringify(input, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))
    const withoutToken = (command: Command) => command.body!.replace(/sealed:[0-9a-f-]{36}/, 'TOKEN')
    const fromText = await sealCommand({ ...plain, body: text }, false, seal)
    const fromInput = await sealCommand({ ...plain, body: text }, false, seal, input)
    expect(withoutToken(fromInput)).toBe(withoutToken(fromText))
    expect(withoutToken(fromInput)).toBe('{"username":"ada","password":"TOKEN","amount":"10","data":{"password":"kept as given"},"at":"1970-01-01T00:00:00.000Z"}')
    expect(input.password).toBe('p1-long-enough')
  })

  it("seals a control document's passwords per section and per user, each distinct one once", async () => {
    const document = {
      accounts: { password: 'p1-long-enough', users: [{ password: 'p2-long-enough!' }, { password: 'p2-long-enough!' }] },
      general: { resources: [{ data: { password: 'x' } }] },
    }
    const sealed = await sealCommand({ ...plain, body: JSON.stringify(document) }, true, seal)
    expect(sealed.body).not.toContain('long-enough')
    const body = JSON.parse(sealed.body!)
    expect(sealed.sealed).toEqual({ [body.accounts.password]: 'sealed(14)', [body.accounts.users[0].password]: 'sealed(15)' })
    expect(body.accounts.users[1].password).toBe(body.accounts.users[0].password)
    expect(body.general.resources[0].data.password).toBe('x')
  })

  it("reads a raw body's escaped key as the key it is", async () => {
    const escaped = await sealCommand({ ...plain, body: '{"accounts":{"users":[{"username":"ada","pass\\u0077ord":"hunter2-long"}]}}' }, true, seal)
    expect(escaped.body).not.toContain('hunter2')
  })

  it('walks nothing but its fixed places, however deep or wide the body', () => {
    let deep: unknown = { password: 'deep-enough-1' }
    for (let i = 0; i < 10_000; i++) deep = { next: deep }
    expect(passwordSlots({ deep, extra: { seed: 1, password: 'x' } }, false)).toEqual([])
    expect(documentSeeds({ seed: 7, scenario: { seed: 9, extra: { seed: 3 } }, more: { seed: 4 } })).toEqual([7, 9])
  })
})

describe('refuseManyPasswords', () => {
  it('refuses a document with more distinct passwords than a write may carry (413)', () => {
    const users = (count: number) => Array.from({ length: count }, (_, i) => ({ password: `password-${i}` }))
    expect(() => refuseManyPasswords({ accounts: { users: users(MAX_COMMAND_PASSWORDS) } }, true)).not.toThrow()
    expect(() => refuseManyPasswords({ accounts: { users: [...users(MAX_COMMAND_PASSWORDS), { password: 'password-0' }] } }, true)).not.toThrow()
    expect(() => refuseManyPasswords({ accounts: { users: users(MAX_COMMAND_PASSWORDS + 1) } }, true)).toThrow(expect.objectContaining({ status: 413, code: 'payload_too_large' }))
  })
})
