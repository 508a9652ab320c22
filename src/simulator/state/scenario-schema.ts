import * as z from 'zod'
import { sectionShape } from '../../areas/registry.js'
import { accountsSectionSchemas } from '../../world/accounts/accounts-section.js'
import { faultRulesSchema } from '../faults/fault-rule.js'
import { toJsonSchema } from '../../kernel/openapi/json-schema.js'
import { MAX_SEED, seedSchema } from '../../kernel/random/seed.js'

/** A seed as every other way in takes it (D24). */
const seed = seedSchema(`must be an integer from 0 to ${MAX_SEED}`)

/** The shared users' rule JSON Schema cannot say, for the descriptions. */
const UNIQUE_USERS = 'Each user id once, and each username once in any case.'

/** The rules across records JSON Schema cannot say: said here and in the description of the part each one is about. */
const CROSS_REFERENCES =
  "Besides what the schema says, records refer to each other, and a document that breaks one of these rules is refused (400 `validation_failed`, one detail per problem, nothing changed): ids (users, products, particles, resources, notifications, tokens, validators, transaction hashes, signatures) are unique in their collection; a delegation names a listed validator; both particles of a pair are in superposition or neither, with outcomes of the pair's mode; a sensor's `accepted` count is at least its kept `points`."

/**
 * A scenario file (D25): what the world holds after seeding: the shared
 * accounts, then each area's section (`src/areas/registry.ts`). Every section
 * is optional so files keep working as areas add sections; unknown keys are
 * refused so typos surface. `scenarios/scenario.schema.json` is generated
 * from this schema.
 *
 * @example
 * const result = scenarioSchema.safeParse(JSON.parse(text))
 */
export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional().describe('Path or URL of scenario.schema.json, for editor completion.'),
    description: z.string().default('').describe('One line shown by `multi-area-mock scenarios`.'),
    seed: seed.optional().describe('Seed used unless the simulator is given one (D24): an integer from 0 to 2^32 − 1.'),
    accounts: accountsSectionSchemas.scenarioSchema.describe(`Users shared by Areas A, B and D (D5). ${UNIQUE_USERS}`),
    ...sectionShape('scenarioSchema'),
    faults: faultRulesSchema.optional().describe('Fault rules in force after loading (latency, error statuses, dropped connections).'),
  })
  .meta({ title: 'multi-area-mock scenario', description: `A scenario (D25): what the world holds after seeding. ${CROSS_REFERENCES}` })
export type Scenario = z.output<typeof scenarioSchema>
export type ScenarioInput = z.input<typeof scenarioSchema>

const u32 = z.int().min(0).max(0xffffffff)

/**
 * The whole world as `GET /__mock/state` returns it and `PUT /__mock/state` accepts it.
 *
 * @example
 * const state = worldStateSchema.parse(await (await fetch(`${base}/__mock/state`)).json())
 */
export const worldStateSchema = z.strictObject({
  format: z.literal(1).default(1),
  seed: seed.optional().describe('The seed the world was made with (D24): an integer from 0 to 2^32 − 1.'),
  meta: z
    .strictObject({
      ids: z.strictObject({
        base: z
          .int()
          .min(0)
          .max(2 ** 40),
        counter: z
          .int()
          .min(0)
          .max(2 ** 47),
      }),
      random: z.tuple([u32, u32, u32, u32]),
    })
    .optional()
    .describe('Where the id generator and random source stand, so ids replay after a restore (D24).'),
  accounts: accountsSectionSchemas.stateSchema.describe(`The users shared by Areas A, B and D (D5). ${UNIQUE_USERS}`),
  ...sectionShape('stateSchema'),
})
// Named, so the document shows it once as `components.schemas.WorldState`.
z.globalRegistry.add(worldStateSchema, {
  id: 'WorldState',
  description: `The whole world, as \`GET /__mock/state\` exports it and \`PUT /__mock/state\` replaces it. ${CROSS_REFERENCES}`,
})
export type WorldState = z.output<typeof worldStateSchema>
export type WorldStateInput = z.input<typeof worldStateSchema>

/**
 * The JSON Schema of scenario files, as committed in `scenarios/scenario.schema.json`.
 *
 * @example
 * writeFileSync('scenario.schema.json', JSON.stringify(scenarioJsonSchema(), null, 2))
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  return toJsonSchema(scenarioSchema, 'input')
}
