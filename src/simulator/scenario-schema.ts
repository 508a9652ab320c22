import * as z from 'zod'
import { sectionShape } from '../areas/registry.js'
import { accountsSectionSchemas } from '../world/accounts/accounts-section.js'
import { faultRulesSchema } from './fault-rule.js'
import { toJsonSchema } from '../kernel/openapi/json-schema.js'

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
    seed: z.int().optional().describe('Seed used unless the simulator is given one (D24).'),
    accounts: accountsSectionSchemas.scenarioSchema,
    ...sectionShape('scenarioSchema'),
    faults: faultRulesSchema.optional().describe('Fault rules in force after loading (latency, error statuses, dropped connections).'),
  })
  .meta({ title: 'multi-area-mock scenario' })
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
  seed: z.int().optional(),
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
  accounts: accountsSectionSchemas.stateSchema,
  ...sectionShape('stateSchema'),
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
