import { describe, expect, it } from 'vitest'
import { allowedHostProblem, HostPolicy } from './host-policy.js'

describe('HostPolicy', () => {
  const defaults = new HostPolicy([], '127.0.0.1')

  it('answers localhost, names under .localhost and IP addresses, with or without a port', () => {
    for (const host of ['localhost', 'LOCALHOST:4000', 'localhost.', 'app.localhost:5173', '127.0.0.1:4000', '10.0.0.7', '[::1]:4000', '[fe80::1]']) {
      expect(defaults.allows(host), host).toBe(true)
    }
  })

  it('refuses other names (DNS rebinding) and anything that is not a host', () => {
    for (const host of ['rebind.attacker.example', 'localhost.attacker.example', 'x', '127.0.0.1.nip.io', 'user@localhost', 'localhost/x', '', '[::1', 'a b']) {
      expect(defaults.allows(host), host).toBe(false)
    }
  })

  it('answers the bound host name and the names listed: exact, or a .suffix for a name and those under it', () => {
    const hosts = new HostPolicy(['mock.test', '.dev.test'], 'box.lan')
    for (const host of ['box.lan:4000', 'mock.test', 'MOCK.test:1', 'dev.test', 'api.dev.test']) expect(hosts.allows(host), host).toBe(true)
    for (const host of ['api.mock.test', 'xdev.test', 'dev.test.evil.example']) expect(hosts.allows(host), host).toBe(false)
  })

  it('"*" answers every host', () => {
    expect(new HostPolicy(['*'], '127.0.0.1').allows('anything.example')).toBe(true)
  })

  it('a host let in only by "*" is not known by name: it cannot vouch for an Origin (DNS rebinding)', () => {
    const any = new HostPolicy(['*', 'mock.test'], 'box.lan')
    for (const host of ['rebind.attacker.example:4000', 'anything.example']) expect(any.knowsByName(host), host).toBe(false)
    for (const host of ['localhost:4000', '127.0.0.1', 'box.lan', 'mock.test:4000']) expect(any.knowsByName(host), host).toBe(true)
    expect(defaults.knowsByName('localhost')).toBe(true)
    expect(defaults.knowsByName('rebind.attacker.example')).toBe(false)
  })

  it('checks --allowed-host values', () => {
    expect(allowedHostProblem('mock.test')).toBeUndefined()
    expect(allowedHostProblem('.mock.test')).toBeUndefined()
    expect(allowedHostProblem('*')).toBeUndefined()
    for (const bad of ['mock.test:4000', 'http://mock.test', '', '..x', 'a..b']) expect(allowedHostProblem(bad), bad).toMatch(/expected a host name/)
  })
})
