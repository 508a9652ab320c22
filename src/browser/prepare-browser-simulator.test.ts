import { describe, expect, it } from 'vitest'
import { ConfigError } from '../kernel/errors/config-error.js'
import { ScenarioError } from '../kernel/errors/scenario-error.js'
import { createSimulator } from '../simulator/create-simulator.js'
import { prepareBrowserSimulator } from './prepare-browser-simulator.js'

const CLOCK = '2026-01-01T00:00:00Z'
const post = (path: string, body: unknown) => new Request(`http://app.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('prepareBrowserSimulator', () => {
  it('makes the world createSimulator makes from the same options, request for request (D24)', async () => {
    for (const options of [
      { seed: 1, clock: CLOCK },
      { seed: 7, clock: CLOCK, scenario: 'pending-users', areas: ['admin' as const, 'general' as const] },
    ]) {
      const prepared = await prepareBrowserSimulator(options, undefined)
      const node = createSimulator(options)
      await node.ready
      expect(prepared.restored).toBe(false)
      expect(prepared.simulator.scenario).toBe(node.scenario)
      for (const sim of [prepared.simulator, node]) {
        await sim.fetch(post('/admin/api/v1.2/users', { username: 'same.everywhere', email: 'same@example.com', password: 'Passw0rd!' }))
      }
      expect(JSON.stringify(prepared.simulator.snapshot())).toBe(JSON.stringify(node.snapshot()))
    }
  })

  it("refuses an invalid option with the simulator's own one-line error, browser options included", async () => {
    const message = (options: object) =>
      prepareBrowserSimulator(options, undefined).then(
        () => 'accepted',
        (error: unknown) => (error instanceof ConfigError ? error.message : `not a ConfigError: ${String(error)}`),
      )
    let nodeMessage = ''
    try {
      createSimulator({ seed: -1 })
    } catch (error) {
      nodeMessage = (error as Error).message
    }
    expect(await message({ seed: -1 })).toBe(nodeMessage)
    expect(await message({ persist: 'disk' })).toMatch(/^Invalid persist "disk": expected "session", "local" or false/)
    expect(await message({ scenario: 'nope' })).toMatch(/^Unknown scenario "nope"\. Available: default, /)
  })

  it('takes a scenario file fetched before the worker started, named after it, and checks it', async () => {
    const team = { seed: 7, accounts: { users: [{ username: 'team.lead', email: 'lead@example.com' }] } }
    const prepared = await prepareBrowserSimulator({ clock: CLOCK }, { url: 'http://app.test/mocks/team.json', name: 'team', json: team })
    expect(prepared.simulator.scenario).toBe('team')
    expect(prepared.simulator.seed).toBe(7)
    expect(prepared.simulator.snapshot().accounts.users.map((user) => user.username)).toEqual(['team.lead'])
    const invalid = prepareBrowserSimulator({}, { url: 'http://app.test/mocks/bad.json', name: 'bad', json: { seed: 'one' } })
    await expect(invalid).rejects.toBeInstanceOf(ScenarioError)
    await expect(invalid).rejects.toThrow('Invalid scenario http://app.test/mocks/bad.json: seed:')
  })

  it('reports a scenario file that could not be fetched as a ConfigError, after the options are checked', async () => {
    const gone = { url: 'http://app.test/mocks/gone.json', problem: 'Cannot load scenario http://app.test/mocks/gone.json: HTTP 404.' }
    const refused = prepareBrowserSimulator({}, gone)
    await expect(refused).rejects.toBeInstanceOf(ConfigError)
    await expect(refused).rejects.toThrow(gone.problem)
    await expect(prepareBrowserSimulator({ seed: -1 }, gone)).rejects.toThrow(/^Invalid seed "-1"/)
  })
})
