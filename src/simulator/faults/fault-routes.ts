import * as z from 'zod'
import { empty, json } from '../../kernel/http/json/json-response.js'
import { defineRoute, jsonBody } from '../../kernel/routing/route.js'
import { faultRuleSchema, faultRulesSchema, faultRuleViewSchema } from './fault-rule.js'
import type { Faults } from './faults.js'

/** Fault rule bodies are small; a generous bound all the same. */
const FAULT_BODY_LIMIT = 256 * 1024

/** `PUT /__mock/faults` body: the complete new list of rules. */
export const putFaultsBodySchema = z.strictObject({ rules: faultRulesSchema.describe('The new rules, in the order they are tried; `[]` removes every rule.') })

/** What every `/__mock/faults` route but `DELETE` answers: the rules in force. */
export const faultListSchema = z
  .object({ rules: z.array(faultRuleViewSchema).describe('In the order they are tried.') })
  .meta({ id: 'FaultRules', description: 'The fault rules in force in the world the request is for.' })

/** Rules the examples set: slow product reads, and one creation in ten rate-limited. */
const EXAMPLE_RULES = [
  { route: '/core/products/*', latency: [50, 200] },
  { method: 'POST', status: 429, probability: 0.1, retryAfter: 2 },
]

/** What the fault routes work on: the fault rules of the world the request is for. */
export interface FaultRouteContext {
  faults: Faults
}

/**
 * `/__mock/faults`: the fault rules of the world the request is for.
 * Its return type is inferred, not declared: the operation types (control-operations.ts) are read from it.
 */
export function faultRoutes({ faults }: FaultRouteContext) {
  return [
    defineRoute({
      method: 'GET',
      path: '/faults',
      operationId: 'listFaults',
      summary: 'List the fault rules',
      description: 'The fault rules in force in the world the request is for, in the order they are tried, each with how often it fired since it was set.',
      responses: { 200: { body: faultListSchema } },
      examples: () => [{}],
      handle: () => json({ rules: faults.list() } satisfies z.infer<typeof faultListSchema>),
    }),
    defineRoute({
      method: 'PUT',
      path: '/faults',
      operationId: 'replaceFaults',
      summary: 'Replace every fault rule',
      description:
        "A rule matches requests by `area`, `method` and `route` and has at least one effect: `latency`, an error `status` (400 to 599) or `drop` (not with `status`). Rules apply to area requests only, never to the control API. Every matching rule that fires adds its latency; the first one with a `status` or `drop` decides the answer. Draws come from a generator seeded by the world's seed. A bad rule changes nothing.",
      body: jsonBody(putFaultsBodySchema, { limit: FAULT_BODY_LIMIT }),
      responses: { 200: { body: faultListSchema } },
      examples: () => [{ summary: 'Slow product reads; one creation in ten rate-limited', body: { rules: EXAMPLE_RULES } }],
      handle({ body }) {
        return json({ rules: faults.set(body.rules) } satisfies z.infer<typeof faultListSchema>)
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/faults',
      operationId: 'addFault',
      summary: 'Add a fault rule',
      description:
        'Adds one rule after the others (see `PUT /__mock/faults` for how rules match and combine); the answer lists every rule now in force. A bad rule changes nothing.',
      body: jsonBody(faultRuleSchema, { limit: FAULT_BODY_LIMIT }),
      responses: { 201: { description: 'Added; the rules now in force.', body: faultListSchema } },
      examples: () => [
        { summary: 'About one request in three to Area E answers 502', body: { area: 'ledger', status: 502, probability: 0.33 } },
        { name: 'invalid', summary: 'Every problem listed', body: { status: 418, route: 'no-slash' } },
      ],
      handle({ body }) {
        return json({ rules: faults.add(body) } satisfies z.infer<typeof faultListSchema>, 201)
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/faults',
      operationId: 'clearFaults',
      summary: 'Remove every fault rule',
      description: '`Prefer: code=…` and `Prefer: delay=…` headers still work. `POST /__mock/reset` puts back the rules the scenario started with.',
      responses: { 204: { description: 'Removed; no body.' } },
      handle() {
        faults.clear()
        return empty(204)
      },
    }),
  ]
}
