import { describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../kernel/errors/config-error.js'
import { builtinScenarios } from '../simulator/state/builtin-scenarios.js'
import { ScenarioError } from '../kernel/errors/scenario-error.js'
import { isScenarioUrl } from './scenario-fetch.js'
import { looksLikeUrl } from './scenario-fetch.js'
import { resolveScenario } from './scenario-source.js'

const PAGE = 'http://app.test/some/page'
const team = { description: 'team', seed: 7, accounts: { users: [{ username: 'team.lead', email: 'lead@example.com' }] } }

/** A `fetch` that answers one body and records what was asked. */
function fakeFetch(reply: () => Response) {
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => reply())
}

describe('resolveScenario', () => {
  it('takes registered names and scenario objects as they are, without fetching', async () => {
    const fetch = fakeFetch(() => new Response('{}'))
    expect(await resolveScenario('pending-users', builtinScenarios, fetch)).toEqual({ name: 'pending-users', scenario: builtinScenarios['pending-users'] })
    expect(await resolveScenario(undefined, builtinScenarios, fetch)).toMatchObject({ name: 'default' })
    expect(await resolveScenario(team, builtinScenarios, fetch)).toEqual({ name: 'custom', scenario: team })
    expect(fetch).not.toHaveBeenCalled()
    await expect(resolveScenario('nope', builtinScenarios, fetch)).rejects.toThrow(`Unknown scenario "nope". Available: ${Object.keys(builtinScenarios).join(', ')}.`)
  })

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('takes %j for an unknown scenario: own names only', async (name) => {
    const fetch = fakeFetch(() => new Response('{}'))
    const refused = resolveScenario(name, builtinScenarios, fetch)
    await expect(refused).rejects.toThrow(ConfigError)
    await expect(refused).rejects.toThrow(`Unknown scenario "${name}". Available: ${Object.keys(builtinScenarios).join(', ')}.`)
    expect(fetch).not.toHaveBeenCalled()
  })

  it('fetches a URL relative to the page, validates it and names it after the file', async () => {
    const fetch = fakeFetch(() => Response.json(team))
    expect(await resolveScenario('../mocks/team.json', builtinScenarios, fetch, PAGE)).toEqual({ name: 'team', scenario: team })
    expect(String(fetch.mock.calls[0]![0])).toBe('http://app.test/mocks/team.json')
    expect(await resolveScenario(new URL('http://cdn.test/worlds/big%20one.json'), builtinScenarios, fetch)).toMatchObject({ name: 'big one' })
  })

  it('names the URL and the problem when the scenario cannot be used', async () => {
    const url = 'http://app.test/mocks/team.json'
    await expect(
      resolveScenario(
        url,
        builtinScenarios,
        fakeFetch(() => new Response('gone', { status: 404 })),
      ),
    ).rejects.toThrow(`Cannot load scenario ${url}: HTTP 404.`)
    await expect(
      resolveScenario(
        url,
        builtinScenarios,
        fakeFetch(() => new Response('{oops')),
      ),
    ).rejects.toThrow(new RegExp(`^Scenario ${url} is not valid JSON: `))
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(resolveScenario(url, builtinScenarios, offline)).rejects.toThrow(`Cannot load scenario ${url}: Failed to fetch.`)
    const invalid = resolveScenario(
      url,
      builtinScenarios,
      fakeFetch(() => Response.json({ accounts: { users: [{ username: 'x', email: 'bad' }] } })),
    )
    await expect(invalid).rejects.toBeInstanceOf(ScenarioError)
    await expect(
      resolveScenario(
        url,
        builtinScenarios,
        fakeFetch(() => Response.json({ seed: 'one' })),
      ),
    ).rejects.toThrow(`Invalid scenario ${url}: seed:`)
    await expect(resolveScenario(url, builtinScenarios, offline)).rejects.toBeInstanceOf(ConfigError)
  })

  it('tells a URL from a name', () => {
    expect(['default', 'pending-users', 'my_world'].map(looksLikeUrl)).toEqual([false, false, false])
    expect(['/mocks/a.json', './a.json', 'a.json', 'https://x.test/s'].map(looksLikeUrl)).toEqual([true, true, true, true])
    // The browser entry asks before anything else loads: a URL object, or a string that looks like one.
    expect([new URL('http://x.test/a.json'), '/mocks/a.json', 'default', { accounts: {} }, undefined].map(isScenarioUrl)).toEqual([true, true, false, false, false])
  })
})
