import * as z from 'zod'
import { OPEN } from '../schema/open-object.js'

/** One problem in a 400 `validation_failed` (its `details`). */
export const errorDetail = z
  .object({
    path: z.string().describe('Dotted path of the bad input: `email`, `3.value`, `query.limit`; `""` for the whole body.'),
    message: z.string(),
  })
  .meta({ id: 'ErrorDetail' })

/**
 * The shape of every error body (D9). Extra top-level fields are allowed: the
 * routes that add some (`particle_id`, `suggestion`...) document them.
 *
 * @example
 * errorBody.parse({ error: 'not_found', message: 'No user with id "x".' })
 */
export const errorBody = z
  .object({
    error: z.string().describe('Stable snake_case code, e.g. `not_found`.'),
    message: z.string().describe('A sentence for humans.'),
    details: z.array(errorDetail).optional().describe('Every problem found (400 `validation_failed` only).'),
  })
  .loose()
  .meta({ id: 'ErrorBody', description: 'Every error is JSON with a stable code and a human message.', ...OPEN })
export type ErrorBody = z.infer<typeof errorBody>

/**
 * What an injected fault answers instead of the route (a fault rule, or a
 * `Prefer: code=` header): the error body, with a message that says so. Any
 * error status of a route faults reach may be one; the message tells it from
 * the route's own answer, which may carry fields a fault's does not.
 *
 * @example
 * injectedFault.parse({ error: 'service_unavailable', message: 'The service is unavailable (injected fault).' })
 */
export const injectedFault = z
  .object({
    error: z.string().describe('The code of the status asked for.'),
    message: z.string().regex(/\(injected fault\)/),
  })
  .loose()
  .meta({ id: 'InjectedFault', description: 'The answer of an injected fault: an error body whose message says "(injected fault)".', ...OPEN })
