import type { Faker } from '@faker-js/faker'
import { isoString } from '../../kernel/time/iso-string.js'
import type { World } from '../world.js'
import type { Account, UserStatus } from './account-schema.js'

const YEAR_MS = 365 * 24 * 3600 * 1000
/** What faker's username keeps as is: plain ASCII names (letters, apostrophes, hyphens, spaces). */
const PLAIN_NAME = /^[\x20-\x7e]*$/

/**
 * One realistic generated user (faker, seeded), without its password hash.
 * `taken` holds the lower-cased usernames already in the world; the new one is
 * added. Draws exactly what faker's `person` and `internet` calls drew before,
 * in the same order, so a seed gives the same users as ever (D24); see
 * `fakerUsername` for why usernames are not faker's own call.
 *
 * @example
 * const user = generateUser(world, 'active', new Set())
 */
export function generateUser(world: World, status: UserStatus, taken: Set<string>): Omit<Account, 'password_hash'> {
  const { faker } = world
  const now = world.clock.nowMs()
  const firstName = faker.person.firstName()
  const lastName = fakerLastName(faker)
  let name = fakerUsername(faker, firstName, lastName)
    .replace(/[^A-Za-z0-9._-]/g, '')
    .slice(0, 56)
  if (name.length < 3) name = `user_${name}`
  while (taken.has(name.toLowerCase())) name = `${name.slice(0, 56)}${faker.number.int({ min: 1, max: 999 })}`
  taken.add(name.toLowerCase())
  // As faker.date.between({ from, to }) does, without its Date conversions.
  const createdAt = faker.number.int({ min: now - 2 * YEAR_MS, max: now })
  const lastLogin = status === 'pending' ? null : isoString(faker.number.int({ min: createdAt, max: now }))
  const created = isoString(createdAt)
  return {
    id: world.nextId(),
    username: name,
    email: emailFor(name, fakerEmail(faker, firstName, lastName)),
    status,
    created_at: created,
    // Pending users were never touched after sign-up; the others were at some point.
    updated_at: status === 'pending' ? created : isoString(faker.number.int({ min: createdAt, max: now })),
    last_login: lastLogin,
  }
}

/**
 * The user's email: the username, lower-cased, at the provider faker drew.
 * Faker's email draws its own separator and number, which gave
 * `Rick.Pfannerstill17` the address `rick.pfannerstill13@…`; its draws are
 * still made (and only the provider kept) so every other value a seed gives
 * stays what it was.
 *
 * @example
 * emailFor('Rick.Pfannerstill17', 'rick_pfannerstill@yahoo.com') // "rick.pfannerstill17@yahoo.com"
 */
export function emailFor(username: string, drawn: string): string {
  const local = username
    .toLowerCase()
    .replaceAll(/\.{2,}/g, '.')
    .replace(/^\./, '')
    .replace(/\.$/, '')
  return `${local || 'user'}@${drawn.slice(drawn.lastIndexOf('@') + 1).toLowerCase()}`
}

const LAST_NAME = '{{person.last_name.generic}}'

/**
 * `faker.person.lastName()`, drawing the same values. Faker's own call fills
 * a pattern (`{{person.last_name.generic}}`, 5 % of the time two of them) by
 * parsing and evaluating it as an expression, which was ~12 % of seeding
 * 100,000 users; the one placeholder our `en` lists use is filled here with the
 * same `arrayElement` draw. Any other placeholder, or lists of another shape,
 * go through faker itself. `generated-user.test.ts` checks both agree draw
 * for draw.
 *
 * @example
 * fakerLastName(faker) // e.g. "Kshlerin"
 */
export function fakerLastName(faker: Faker): string {
  const patterns = faker.rawDefinitions.person?.last_name_pattern
  const names = faker.rawDefinitions.person?.last_name?.generic
  if (!patterns?.generic || patterns.female || patterns.male || !names) return faker.person.lastName()
  // Faker draws a sex first, though only the generic lists exist.
  faker.person.sexType()
  let text = faker.helpers.weightedArrayElement(patterns.generic)
  // As faker's `helpers.fake`: the first placeholder, again and again, until none is left.
  for (;;) {
    const start = text.search(/{{[a-z]/)
    const end = text.indexOf('}}', start)
    if (start === -1 || end === -1) return text
    if (text.slice(start, end + 2) !== LAST_NAME) return faker.helpers.fake(text)
    text = text.substring(0, start) + faker.helpers.arrayElement(names) + text.substring(end + 2)
  }
}

/**
 * `faker.internet.username({ firstName, lastName })`, drawing the same values.
 * Faker's own call normalizes every name (NFKD, transliteration table, one
 * string per character), which was the largest part of seeding 100,000 users;
 * for plain ASCII names, which is every name of the `en` lists we ship,
 * that normalization changes nothing but quotes and spaces, so it is skipped.
 * Any other name goes through faker itself. `generated-user.test.ts` checks
 * both agree draw for draw.
 *
 * @example
 * fakerUsername(faker, 'Ada', "O'Hara") // e.g. "Ada.OHara42"
 */
export function fakerUsername(faker: Faker, firstName: string, lastName: string): string {
  if (lastName === '' || !PLAIN_NAME.test(firstName) || !PLAIN_NAME.test(lastName)) return faker.internet.username({ firstName, lastName })
  const separator = faker.helpers.arrayElement(['.', '_'])
  const number = faker.number.int(99)
  // Faker picks one of two templates (a third only when no last name is given).
  const name = faker.helpers.arrayElement([0, 1]) === 0 ? `${firstName}${separator}${lastName}${number}` : `${firstName}${separator}${lastName}`
  return name.replaceAll("'", '').replaceAll(' ', '')
}

/** `faker.internet.email({ firstName, lastName })`, drawing the same values (see `fakerUsername`). */
export function fakerEmail(faker: Faker, firstName: string, lastName: string): string {
  const provider = faker.helpers.arrayElement(faker.definitions.internet.free_email)
  let local = fakerUsername(faker, firstName, lastName)
    .replaceAll(/[^A-Za-z0-9._+-]+/g, '')
    .substring(0, 50)
  local = local
    .replaceAll(/\.{2,}/g, '.')
    .replace(/^\./, '')
    .replace(/\.$/, '')
  return `${local}@${provider}`
}
