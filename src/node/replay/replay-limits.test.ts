import { describe, expect, it } from 'vitest'
import { checkReplayLimits, withoutReplayLimits } from './replay-limits.js'

const FILE = '/data/bundle.json'

describe('the limits a replay keeps to', () => {
  it('takes a bundle within the defaults, or within the limits given', () => {
    expect(() => checkReplayLimits(FILE, { scenario: 'default', worlds: { maxRecords: 10_000 }, journal: { size: 10 } }, {})).not.toThrow()
    expect(() => checkReplayLimits(FILE, { worlds: { maxRecords: 50_000 }, limits: { bodyBytes: 4096 } }, { worlds: { maxRecords: 50_000 } })).not.toThrow()
  })

  it('refuses, in one line naming each flag, a bundle asking for more than the server allows', () => {
    expect(() =>
      checkReplayLimits(FILE, { worlds: { maxRecords: 1e9, max: 1000 }, journal: { bodyLimit: 1e7 }, limits: { ingestPoints: 20_000 } }, { journal: { bodyLimit: 9 } }),
    ).toThrow(
      `The bundle ${FILE} asks for more than this server allows: worlds.maxRecords 1,000,000,000 (this server: 10,000; --max-world-records); worlds.max 1,000 (this server: 32; --max-worlds); limits.ingestPoints 20,000 (this server: 10,000; in-process only); journal.bodyLimit 10,000,000 (this server: 9; --journal-body-limit). Give those flags to replay it, if you trust the file.`,
    )
  })

  it('refuses a world its own scenarios would seed past the records one world may hold, a registered one included', () => {
    const huge = { accounts: { generate: { active: 20_000 } } }
    expect(() => checkReplayLimits(FILE, { scenario: 'empty', scenarios: { later: huge } }, {})).toThrow(
      `The bundle ${FILE} seeds its world with 20,082 records (scenario "later": 20,000 users, 40 resources, 24 products, 10 tokens, …), past the 10,000 this server allows one world (--max-world-records). Give that flag to replay it, if you trust the file.`,
    )
    expect(() => checkReplayLimits(FILE, { scenario: huge, worlds: { maxRecords: 10_000 } }, { worlds: { maxRecords: 30_000 } })).not.toThrow()
    // Only the mounted areas seed: a big quantum part is nothing without Area C.
    const particles = { accounts: { users: [] }, quantum: { generate: { spin: { superposition: 5000, collapsed: 5000 }, polarization: { superposition: 5000, collapsed: 5000 } } } }
    expect(() => checkReplayLimits(FILE, { scenario: particles, areas: ['core'] }, {})).not.toThrow()
    expect(() => checkReplayLimits(FILE, { scenario: particles }, {})).toThrow(/seeds its world with 40,\d{3} records \(scenario "custom": 40,000 particles/)
  })

  it('leaves the limits out of the options a replay refuses, and the rest as given', () => {
    expect(withoutReplayLimits({ seed: 3, worlds: { maxRecords: 5, idle: 1000 }, journal: { size: 1 }, limits: { bodyBytes: 10 } })).toEqual({ seed: 3, worlds: { idle: 1000 } })
  })
})
