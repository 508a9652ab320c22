import type { World } from '../../../world/world.js'
import type { ResourceRecord } from '../schemas.js'

const YEAR_MS = 365 * 24 * 3600 * 1000
const KINDS = ['project', 'document', 'dataset', 'report'] as const
const STATUSES = ['draft', 'in_review', 'published', 'archived'] as const
const VISIBILITY = ['private', 'team', 'public'] as const
// A fixed list rather than faker's column names, some of which ("password") would look like leaked secrets in the state API.
const COLUMNS = ['id', 'name', 'email', 'country', 'amount', 'quantity', 'created_at', 'score', 'category', 'status']
const TAGS = ['finance', 'marketing', 'engineering', 'design', 'sales', 'research', 'legal', 'ops', 'q1', 'q2', 'q3', 'q4', 'urgent', 'internal', 'customer', 'roadmap']

/**
 * Realistic, varied resources for the `general` section (faker, seeded, so the
 * same seed gives the same resources: D24). Every resource has a title, kind,
 * owner, status, tags, nested metrics and sharing settings; each kind adds its
 * own nested fields (a project's budget and team, a dataset's columns, a
 * report's period), so `fields` filters have something to do.
 *
 * @example
 * generateResources(world, ['ada', 'grace'], 3, 1) // ids 1, 2, 3
 */
export function generateResources(world: World, owners: readonly string[], count: number, firstId: number): ResourceRecord[] {
  const resources: ResourceRecord[] = []
  for (let i = 0; i < count; i++) resources.push(generateResource(world, owners, firstId + i))
  return resources
}

function generateResource(world: World, owners: readonly string[], id: number): ResourceRecord {
  const { faker } = world
  const now = world.clock.now()
  const created = faker.date.between({ from: new Date(now.getTime() - YEAR_MS), to: now })
  const updated = faker.date.between({ from: created, to: now })
  const owner = () => (owners.length > 0 ? faker.helpers.arrayElement(owners) : faker.internet.username().toLowerCase())
  const kind = faker.helpers.arrayElement(KINDS)
  const data: Record<string, unknown> = {
    title: faker.company.catchPhrase(),
    kind,
    owner: owner(),
    status: faker.helpers.arrayElement(STATUSES),
    tags: faker.helpers.arrayElements(TAGS, { min: 1, max: 4 }),
    description: `${capitalise(faker.company.buzzPhrase())} for ${faker.company.name()}.`,
    metrics: {
      views: faker.number.int({ min: 0, max: 50_000 }),
      likes: faker.number.int({ min: 0, max: 2_000 }),
      rating: faker.number.float({ min: 1, max: 5, fractionDigits: 1 }),
    },
    settings: { visibility: faker.helpers.arrayElement(VISIBILITY), comments_enabled: faker.datatype.boolean() },
  }
  if (kind === 'project') {
    data.budget = { amount: faker.number.float({ min: 1_000, max: 250_000, fractionDigits: 2 }), currency: faker.helpers.arrayElement(['USD', 'EUR', 'GBP']) }
    data.progress = faker.number.int({ min: 0, max: 100 })
    data.due_date = faker.date.soon({ days: 180, refDate: now }).toISOString()
    data.team = owners.length > 0 ? faker.helpers.arrayElements(owners, { min: 1, max: 4 }) : [owner()]
  } else if (kind === 'document') {
    data.word_count = faker.number.int({ min: 150, max: 12_000 })
    data.language = faker.helpers.arrayElement(['en', 'de', 'fr', 'es', 'ja'])
    data.revision = faker.number.int({ min: 1, max: 40 })
  } else if (kind === 'dataset') {
    data.rows = faker.number.int({ min: 100, max: 5_000_000 })
    data.size_bytes = faker.number.int({ min: 10_000, max: 2_000_000_000 })
    data.columns = faker.helpers.arrayElements(COLUMNS, { min: 2, max: 5 }).map((name) => ({
      name,
      type: faker.helpers.arrayElement(['string', 'integer', 'decimal', 'timestamp', 'boolean']),
    }))
    data.location = { region: faker.helpers.arrayElement(['eu-west-1', 'us-east-1', 'ap-southeast-2']), city: faker.location.city() }
  } else {
    const from = faker.date.past({ years: 1, refDate: now })
    data.period = { from: from.toISOString(), to: faker.date.between({ from, to: now }).toISOString() }
    data.summary = { total: faker.number.float({ min: 0, max: 1_000_000, fractionDigits: 2 }), change_percent: faker.number.float({ min: -50, max: 50, fractionDigits: 1 }) }
    data.format = faker.helpers.arrayElement(['pdf', 'csv', 'xlsx'])
  }
  return { id, data, created_at: created.toISOString(), updated_at: updated.toISOString() }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
