import { describe, expect, it } from 'vitest'
import type { Command } from '../log/command.js'
import type { WorldSnapshot } from '../state/state-lifecycle.js'
import { HISTORY_LIMITS, WorldHistory } from './world-history.js'

/** A family of worlds whose state is a counter, as the history sees them. */
function family() {
  const worlds = new Map<string | null, { member: object; writes: number }>([[null, { member: {}, writes: 0 }]])
  const history = new WorldHistory(
    {
      member: (id) => worlds.get(id)?.member,
      save: (id) => (worlds.has(id) ? ({ state: { writes: worlds.get(id)!.writes } } as unknown as WorldSnapshot) : undefined),
    },
    () => 0,
  )
  const apply = (world: string | null, body = 'x') => {
    const command: Command = { world, method: 'POST', url: 'http://sim.test/core/users', body, at: 0 }
    history.before(command)
    worlds.get(world)!.writes++
    history.after(command, 200)
  }
  return { worlds, history, apply }
}

describe('WorldHistory', () => {
  it('keeps each world from before its first command, then its commands in order', () => {
    const { worlds, history, apply } = family()
    apply(null, 'a')
    worlds.set('w1', { member: {}, writes: 10 })
    apply('w1', 'b')
    apply(null, 'c')
    expect(history.of(null)!.start).toEqual({ state: { writes: 0 } })
    expect(history.of(null)!.commands.map((command) => command.body)).toEqual(['a', 'c'])
    expect(history.of('w1')!.start).toEqual({ state: { writes: 10 } })
    expect(history.of('missing')).toBeUndefined()
  })

  it('starts again for a world made anew under an old id, and lets a deleted world go', () => {
    const { worlds, history, apply } = family()
    worlds.set('w1', { member: {}, writes: 0 })
    apply('w1')
    apply('w1')
    worlds.set('w1', { member: {}, writes: 7 })
    apply('w1', 'fresh')
    expect(history.of('w1')!.start).toEqual({ state: { writes: 7 } })
    expect(history.of('w1')!.commands.map((command) => command.body)).toEqual(['fresh'])
    worlds.delete('w1')
    expect(history.of('w1')).toBeUndefined()
  })

  it('folds a long history into a new start, counting what it folded', () => {
    const { history, apply } = family()
    for (let i = 0; i < HISTORY_LIMITS.commands + 3; i++) apply(null)
    const kept = history.of(null)!
    expect(kept.folded).toBe(HISTORY_LIMITS.commands)
    expect(kept.commands).toHaveLength(3)
    expect(kept.start).toEqual({ state: { writes: HISTORY_LIMITS.commands } })
  })
})
