import * as z from 'zod'

/** One problem in a 400 `validation_failed` (D9 `details`). */
export const errorDetail = z.object({
  path: z.string().describe('Dotted path of the bad input: `email`, `3.value`, `query.limit`; `""` for the whole body.'),
  message: z.string(),
})

/**
 * The shape of every error body (D9). Extra top-level fields are allowed: the
 * routes that add some (`particle_id`, `suggestion`...) document them.
 *
 * @example
 * errorBody.parse({ error: 'not_found', message: 'No user with id "x".' })
 */
export const errorBody = z
  .object({
    error: z.string().describe('Stable snake_case code (D9).'),
    message: z.string().describe('A sentence for humans.'),
    details: z.array(errorDetail).optional().describe('Every problem found (400 `validation_failed` only).'),
  })
  .loose()
  .meta({ id: 'ErrorBody', description: 'Every error is JSON with a stable code and a human message (D9).' })
export type ErrorBody = z.infer<typeof errorBody>
