import { describe, expect, it } from 'vitest'
import { toSimClock } from '../../kernel/time/sim-clock.js'
import { World } from '../world.js'
import type { UserStatus } from './account-schema.js'
import { emailFor, fakerEmail, fakerLastName, fakerUsername, generateUser } from './generated-user.js'

const world = (seed: number) => new World({ seed, clock: toSimClock('2026-01-01T00:00:00Z'), limits: { bodyBytes: 1024, ingestPoints: 10 } })
const YEAR_MS = 365 * 24 * 3600 * 1000

/** How users were generated with faker's own calls; the fast path must match it draw for draw (D24). */
function referenceUser(w: World, status: UserStatus, taken: Set<string>) {
  const { faker } = w
  const now = w.clock.now()
  const firstName = faker.person.firstName()
  const lastName = faker.person.lastName()
  let name = faker.internet
    .username({ firstName, lastName })
    .replace(/[^A-Za-z0-9._-]/g, '')
    .slice(0, 56)
  if (name.length < 3) name = `user_${name}`
  while (taken.has(name.toLowerCase())) name = `${name.slice(0, 56)}${faker.number.int({ min: 1, max: 999 })}`
  taken.add(name.toLowerCase())
  const createdAt = faker.date.between({ from: new Date(now.getTime() - 2 * YEAR_MS), to: now })
  const lastLogin = status === 'pending' ? null : faker.date.between({ from: createdAt, to: now }).toISOString()
  return {
    id: w.nextId(),
    username: name,
    email: emailFor(name, faker.internet.email({ firstName, lastName })),
    status,
    created_at: createdAt.toISOString(),
    updated_at: status === 'pending' ? createdAt.toISOString() : faker.date.between({ from: createdAt, to: now }).toISOString(),
    last_login: lastLogin,
  }
}

describe('generated users', () => {
  it('are the users faker itself would generate, with the same draws, for several seeds', () => {
    for (const seed of [1, 2, 77]) {
      const [fast, reference] = [world(seed), world(seed)]
      const [fastTaken, referenceTaken] = [new Set<string>(), new Set<string>()]
      for (let i = 0; i < 3000; i++) {
        const status = (['active', 'inactive', 'pending'] as const)[i % 3]!
        expect(generateUser(fast, status, fastTaken)).toEqual(referenceUser(reference, status, referenceTaken))
      }
      expect(fast.random.getState()).toEqual(reference.random.getState())
    }
  })

  it('have the email their username makes, at the provider faker drew', () => {
    const w = world(1)
    const taken = new Set<string>()
    const users = Array.from({ length: 500 }, (_, i) => generateUser(w, (['active', 'inactive', 'pending'] as const)[i % 3]!, taken))
    for (const user of users) {
      const [local, provider] = user.email.split('@')
      expect(local).toBe(
        user.username
          .toLowerCase()
          .replaceAll(/\.{2,}/g, '.')
          .replace(/^\./, '')
          .replace(/\.$/, ''),
      )
      expect(w.faker.definitions.internet.free_email).toContain(provider)
    }
    expect(emailFor('Rick.Pfannerstill17', 'rick_pfannerstill13@yahoo.com')).toBe('rick.pfannerstill17@yahoo.com')
  })

  it('make usernames and emails exactly as faker does, names with quotes, spaces, hyphens or accents included', () => {
    const names = [
      ['Ada', "O'Hara"],
      ["D'angelo", 'Smith-Jones'],
      ['Mary Ann', 'Van Der Berg'],
      ['Zoë', 'Ødegård'],
      ['Łukasz', 'Müller'],
      ['Jo', ''],
      ['A', 'B'],
    ]
    for (const [firstName, lastName] of names) {
      for (let round = 0; round < 20; round++) {
        const [fast, reference] = [world(round), world(round)]
        expect(fakerUsername(fast.faker, firstName!, lastName!)).toBe(reference.faker.internet.username({ firstName: firstName!, lastName: lastName! }))
        expect(fakerEmail(fast.faker, firstName!, lastName!)).toBe(reference.faker.internet.email({ firstName: firstName!, lastName: lastName! }))
        expect(fast.random.getState()).toEqual(reference.random.getState())
      }
    }
  })

  it('draw last names exactly as faker does, double-barrelled ones included', () => {
    for (const seed of [1, 5, 123]) {
      const [fast, reference] = [world(seed), world(seed)]
      const drawn = Array.from({ length: 5000 }, () => fakerLastName(fast.faker))
      expect(drawn).toEqual(Array.from({ length: 5000 }, () => reference.faker.person.lastName()))
      expect(fast.random.getState()).toEqual(reference.random.getState())
      expect(drawn.some((name) => name.includes('-'))).toBe(true)
    }
  })
})
