import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../simulator/create-simulator.js'
import { recorderFor } from '../../simulator/recording/recorder-setup.js'
import type { SimulatorInstance } from '../../simulator/simulator-instance.js'
import type { RecordedSection } from '../recording.js'
import { accountsRecording, RECORDED_USERS } from './accounts-recording.js'

const USERS = 'http://localhost/admin/api/v1.2/users'
const ADA = { id: 'u-ada', username: 'ada', email: 'ada@example.com', status: 'inactive', created_at: '2025-01-01T00:00:00.000Z' }

const seen = (...users: Array<Record<string, unknown>>): RecordedSection => ({
  collections: new Map([[RECORDED_USERS, new Map(users.map((user) => [user.id as string, user]))]]),
  settings: new Map(),
})

describe('accounts recording', () => {
  it('merges a list item and a later detail read into one user, with its last login and no password', async () => {
    const sim = createSimulator({ seed: 1, scenario: 'empty' })
    const recorder = recorderFor({ dispatcher: (sim as SimulatorInstance).dispatcher, areas: ['admin'], seed: 2, description: 'merge' })
    recorder.record({ method: 'GET', url: `${USERS}?limit=5`, status: 200, responseText: JSON.stringify([ADA]) })
    const detail = { ...ADA, status: 'active', updated_at: '2025-02-01T00:00:00.000Z', last_login: '2025-03-01T08:00:00.000Z' }
    recorder.record({ method: 'GET', url: `${USERS}/u-ada`, status: 200, responseText: JSON.stringify(detail) })
    // An older list page seen afterwards changes only what it shows.
    recorder.record({ method: 'GET', url: `${USERS}?limit=5`, status: 200, responseText: JSON.stringify([{ ...ADA, status: 'active', email: 'ada@new.example.com' }]) })
    expect(recorder.scenario().accounts).toEqual({ users: [{ ...detail, email: 'ada@new.example.com', password: null }] })
  })

  it('drops the base section generated users and password: only the users seen are kept', () => {
    const base = { password: 'team-password', generate: { active: 3 }, users: [{ username: 'qa.admin', email: 'qa@example.com' }] }
    expect(accountsRecording.scenario(seen(ADA), base)).toEqual({ scenario: { users: [{ ...ADA, password: null }] }, left: [] })
    expect(accountsRecording.scenario(seen(), base)).toEqual({ scenario: { users: [] }, left: [] })
  })

  it('leaves out, saying why, a user the scenario would refuse or never shown whole', () => {
    const recorded = seen(
      ADA,
      { id: 'u-half', username: 'half.seen' },
      { id: 'u-bad', username: 'no', email: 'bad@example.com', created_at: ADA.created_at },
      { id: 'u-twin', username: 'ADA', email: 'twin@example.com', created_at: ADA.created_at },
    )
    const { scenario, left } = accountsRecording.scenario(recorded, undefined)
    expect(scenario.users?.map((user) => user.id)).toEqual(['u-ada'])
    expect(left).toEqual([
      'users/u-half: no answer showed its username and email',
      'users/u-bad: username must be 3 to 64 characters: letters, digits, ".", "_" or "-"',
      `users/u-twin: its username "ADA" is user u-ada's too (a deletion not seen?)`,
    ])
  })
})
