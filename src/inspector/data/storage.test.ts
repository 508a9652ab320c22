import { describe, expect, it } from 'vitest'
import { type ServerInfo, storageOf } from './storage.js'

const plain: ServerInfo = { stateFile: null, controlToken: false, store: null, replayed: null }
const replayed = { file: '/home/you/mock-world.json', commands: 3, applied: 3, until: null }

describe('storageOf: where the world shown is kept', () => {
  it('in memory: suggests --state-file, which a plain server accepts', () => {
    expect(storageOf(plain, 'default')).toEqual({ label: 'In memory', note: 'This world lives in memory; start the server with --state-file to keep it.' })
    expect(storageOf(plain, 'lab').note).toBe('An isolated world lives in memory until it is deleted or expires.')
  })

  it('in a state file: the default world only', () => {
    const info = { ...plain, stateFile: '/srv/world.json' }
    expect(storageOf(info, 'default')).toMatchObject({ label: 'Kept in /srv/world.json', title: '/srv/world.json' })
    expect(storageOf(info, 'lab').label).toBe('In memory')
  })

  it('on a replica: every world is shared through Redis, and --state-file is never suggested', () => {
    const info = { ...plain, store: 'redis://127.0.0.1:6379' }
    for (const world of ['default', 'lab']) {
      const storage = storageOf(info, world)
      expect(storage).toMatchObject({ label: 'Shared through Redis (replica)', title: 'redis://127.0.0.1:6379' })
      expect(`${storage.label} ${storage.note}`).not.toContain('--state-file')
    }
  })

  it('replayed: names the bundle file and what was applied, and suggests neither --state-file nor --store', () => {
    const whole = storageOf({ ...plain, replayed }, 'default')
    expect(whole).toMatchObject({ label: 'Replayed from mock-world.json', title: '/home/you/mock-world.json' })
    expect(whole.note).toMatch(/^Rebuilt from mock-world\.json \(3 commands\);/)
    expect(whole.note).not.toMatch(/--state-file|--store/)
    const one = storageOf({ ...plain, replayed: { ...replayed, commands: 1, applied: 1 } }, 'default')
    expect(one.note).toMatch(/^Rebuilt from mock-world\.json \(1 command\);/)
    const until = storageOf({ ...plain, replayed: { ...replayed, applied: 2, until: 3 } }, 'default')
    expect(until.note).toMatch(/^Rebuilt from mock-world\.json \(2 of 3 commands, stopped before command 3\);/)
    expect(storageOf({ ...plain, replayed }, 'lab').label).toBe('In memory')
  })
})
