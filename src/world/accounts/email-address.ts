import * as z from 'zod'

/** Most characters before the `@` (RFC 5321 §4.5.3.1.1), and in the whole address (RFC 5321 with RFC 3696 erratum 1690). */
export const MAX_LOCAL_PART = 64
export const MAX_EMAIL_LENGTH = 254

/**
 * zod's own email pattern with RFC 1035 domain labels (1 to 63 letters, digits
 * or hyphens, never starting or ending with a hyphen: `a@b-.com` is refused,
 * zod's default lets a label end in one) and at most `MAX_LOCAL_PART`
 * characters before the `@` (the lookahead), so the published pattern is the
 * whole rule but the overall length, which is `maxLength`.
 */
// biome-ignore lint/complexity/noUselessEscapeInRegex: the pattern's text is published in the OpenAPI document and the scenario JSON Schema as it is
export const EMAIL_PATTERN = /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/

/** The part before the `@` is too long: said on its own, since "not a valid email address" would leave a user guessing. */
function localPartTooLong(input: unknown): boolean {
  return typeof input === 'string' && input.indexOf('@') > MAX_LOCAL_PART
}

/**
 * An email address as accounts take it (Area A and B, scenarios, state): the
 * message names the broken limit.
 *
 * @example
 * email.safeParse(`${'a'.repeat(65)}@example.com`).error?.issues[0]?.message // 'must have at most 64 characters before the @'
 */
export const email = z
  .email({
    pattern: EMAIL_PATTERN,
    error: (issue) => (localPartTooLong(issue.input) ? `must have at most ${MAX_LOCAL_PART} characters before the @` : 'must be a valid email address'),
  })
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .describe(`An email address: at most ${MAX_LOCAL_PART} characters before the @ and ${MAX_EMAIL_LENGTH} in all; domain labels never start or end with a hyphen.`)
