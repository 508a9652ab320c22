import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { email, EMAIL_PATTERN, MAX_LOCAL_PART } from './email-address.js'

const local = (length: number) => `${'a'.repeat(length)}@example.com`
/** 257 characters, every label within 63. */
const tooLong = `a@${Array.from({ length: 4 }, () => 'b'.repeat(62)).join('.')}.com`

describe('email addresses: at most 64 characters before the @ (RFC 5321)', () => {
  it('accepts 64 and refuses 65, with a message that names the limit', () => {
    expect(email.safeParse(local(MAX_LOCAL_PART)).success).toBe(true)
    expect(email.safeParse(local(MAX_LOCAL_PART + 1)).error?.issues.map((issue) => issue.message)).toEqual(['must have at most 64 characters before the @'])
    expect(email.safeParse(`first.${'b'.repeat(59)}@example.com`).success).toBe(false)
  })

  it('keeps the rules it had: domain labels without edge hyphens, at most 254 characters', () => {
    for (const address of ['a@b.com', 'first.last+tag@sub.example-mail.org', "o'neil@example.com", `a@${'b'.repeat(63)}.com`])
      expect(email.safeParse(address).success, address).toBe(true)
    for (const address of ['a@b-.com', 'a@-b.com', 'a@b', 'not-an-email', '@example.com', tooLong]) {
      expect(email.safeParse(address).success, address).toBe(false)
    }
    expect(email.safeParse('a@b-.com').error?.issues[0]?.message).toBe('must be a valid email address')
  })

  it('publishes the whole rule: the pattern refuses a long local part in any ECMA-262 validator, and the description says it', () => {
    const schema = z.toJSONSchema(email) as { pattern: string; maxLength: number; description: string }
    expect(schema.pattern).toBe(EMAIL_PATTERN.source)
    const published = new RegExp(schema.pattern, 'u')
    expect([published.test(local(64)), published.test(local(65))]).toEqual([true, false])
    expect(schema.maxLength).toBe(254)
    expect(schema.description).toContain('at most 64 characters before the @')
  })
})
