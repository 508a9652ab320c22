import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { builtinScenarios } from './builtin-scenarios.js'
import { scenarioJsonSchema, scenarioSchema } from './scenario-schema.js'

describe('scenario schema (D25)', () => {
  it('is committed up to date in scenarios/scenario.schema.json (run `npm run schema`)', () => {
    const committed = readFileSync(new URL('../../../scenarios/scenario.schema.json', import.meta.url), 'utf8')
    expect(JSON.parse(committed)).toEqual(scenarioJsonSchema())
  })

  it('accepts every built-in scenario', () => {
    for (const [name, scenario] of Object.entries(builtinScenarios)) {
      expect(scenarioSchema.safeParse(scenario).success, name).toBe(true)
    }
  })

  it('refuses unknown keys, so typos surface', () => {
    const result = scenarioSchema.safeParse({ acounts: {} })
    expect(result.success).toBe(false)
  })
})
