import type { LocaleDefinition } from '@faker-js/faker'

/**
 * The parts of faker's `en` locale the world's generators use. The whole `en`
 * locale is ~114 kB of a browser bundle (gzipped); these few lists are what
 * seeding needs, kept in `fixtures/faker-en.json` (`npm run faker-locale`
 * rebuilds it, and a test fails while it is stale or a generator reaches for a
 * list that is not here).
 */
export const FAKER_DEFINITIONS = {
  person: ['first_name', 'last_name', 'last_name_pattern', 'middle_name', 'prefix', 'suffix', 'name'],
  internet: ['domain_suffix', 'example_email', 'free_email'],
  location: ['city_name', 'city_pattern', 'city_prefix', 'city_suffix'],
  company: ['adjective', 'buzz_adjective', 'buzz_noun', 'buzz_verb', 'descriptor', 'legal_entity_type', 'name_pattern', 'noun'],
  metadata: ['title', 'code', 'language', 'endonym', 'dir', 'script'],
} as const

/**
 * Picks `FAKER_DEFINITIONS` out of a full locale.
 *
 * @example
 * import { en } from '@faker-js/faker'
 * writeFileSync('fixtures/faker-en.json', JSON.stringify(pickDefinitions(en)))
 */
export function pickDefinitions(locale: LocaleDefinition): LocaleDefinition {
  const picked: Record<string, Record<string, unknown>> = {}
  for (const [module, keys] of Object.entries(FAKER_DEFINITIONS)) {
    const source = (locale as Record<string, Record<string, unknown> | undefined>)[module]
    if (!source) continue
    picked[module] = {}
    for (const key of keys) if (source[key] !== undefined) picked[module][key] = source[key]
  }
  return picked as LocaleDefinition
}
