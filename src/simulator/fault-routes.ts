import * as z from 'zod'
import { empty, json } from '../kernel/json-response.js'
import { parseBody } from '../kernel/json-body.js'
import type { RouteDefinition } from '../kernel/route.js'
import { faultRuleSchema, faultRulesSchema } from './fault-rule.js'
import type { Faults } from './faults.js'

/** Fault rule bodies are small; a generous bound all the same. */
const FAULT_BODY_LIMIT = 256 * 1024

/** `PUT /__mock/faults` body: the complete new list of rules. */
export const putFaultsBodySchema = z.strictObject({ rules: faultRulesSchema })

/** `/__mock/faults`: the fault rules of the world the request is for. */
export function faultRoutes(faults: Faults): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/faults',
      summary: 'The fault rules in force, with how often each fired',
      handle: () => json({ rules: faults.list() }),
    },
    {
      method: 'PUT',
      path: '/faults',
      summary: 'Replace every fault rule: {rules: [{area?, method?, route?, latency?, status?, drop?, probability?, times?, retryAfter?}]}',
      async handle({ request }) {
        const body = await parseBody(request, putFaultsBodySchema, { limit: FAULT_BODY_LIMIT })
        return json({ rules: faults.set(body.rules) })
      },
    },
    {
      method: 'POST',
      path: '/faults',
      summary: 'Add one fault rule after the others',
      async handle({ request }) {
        const rule = await parseBody(request, faultRuleSchema, { limit: FAULT_BODY_LIMIT })
        return json({ rules: faults.add(rule) }, 201)
      },
    },
    {
      method: 'DELETE',
      path: '/faults',
      summary: 'Remove every fault rule',
      handle() {
        faults.clear()
        return empty(204)
      },
    },
  ]
}
