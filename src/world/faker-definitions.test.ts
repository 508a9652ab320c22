import { base, en, Faker, type LocaleDefinition } from '@faker-js/faker'
import { describe, expect, it } from 'vitest'
import fakerEn from '../../fixtures/faker-en.json' with { type: 'json' }
import { SeededRandom } from '../kernel/random/random.js'
import { pickDefinitions } from './faker-definitions.js'

/** Every faker call the world's generators make (grep `faker\.` in src). */
const calls: Array<(faker: Faker) => unknown> = [
  (f) => f.person.firstName(),
  (f) => f.person.lastName(),
  (f) => f.internet.username({ firstName: f.person.firstName(), lastName: f.person.lastName() }),
  (f) => f.internet.email({ firstName: f.person.firstName(), lastName: f.person.lastName() }),
  (f) => f.location.city(),
  (f) => f.company.name(),
  (f) => f.company.catchPhrase(),
  (f) => f.company.buzzPhrase(),
  (f) => f.date.between({ from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }).toISOString(),
  (f) => f.date.soon({ refDate: '2026-01-01T00:00:00Z' }).toISOString(),
  (f) => f.date.past({ refDate: '2026-01-01T00:00:00Z' }).toISOString(),
  (f) => f.number.int({ min: 0, max: 1000 }),
  (f) => f.number.float({ min: 0, max: 1, fractionDigits: 2 }),
  (f) => f.datatype.boolean(),
  (f) => f.helpers.arrayElements(['a', 'b', 'c', 'd']),
]

describe('the trimmed faker locale', () => {
  it('is what `npm run faker-locale` makes from the installed faker (not stale)', () => {
    expect(fakerEn).toEqual(JSON.parse(JSON.stringify(pickDefinitions(en))))
  })

  it('gives exactly what the full en locale gives, for every call the generators make', () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const full = new Faker({ locale: [en, base], randomizer: new SeededRandom(seed) })
      const trimmed = new Faker({ locale: [fakerEn as LocaleDefinition, base], randomizer: new SeededRandom(seed) })
      for (let round = 0; round < 50; round++) {
        for (const call of calls) expect(call(trimmed)).toEqual(call(full))
      }
    }
  })
})
