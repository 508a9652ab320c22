import { describe, expect, it } from 'vitest'
import { carriesControlToken, controlTokenGuard } from './control-token.js'

describe('controlTokenGuard', () => {
  const refuse = controlTokenGuard('s3cret')

  it('passes the right Bearer token, refuses a missing or wrong one', () => {
    expect(refuse('Bearer s3cret')).toBeUndefined()
    expect(refuse(undefined)?.code).toBe('unauthorized')
    expect(refuse('Basic czNjcmV0')?.code).toBe('unauthorized')
    expect(refuse('Bearer other')?.code).toBe('invalid_token')
  })
})

describe('carriesControlToken', () => {
  const carries = carriesControlToken('s3cret')

  it('is true for an Authorization the control token would pass, however it is spelled', () => {
    for (const header of ['Bearer s3cret', 'bearer s3cret', 'BEARER\ts3cret ', 'Bearer   s3cret']) expect(carries(header), header).toBe(true)
  })

  it('is false for any other Authorization', () => {
    for (const header of [undefined, '', 'Bearer s3cret2', 'Bearer s3cre', 'Basic czNjcmV0', 's3cret']) expect(carries(header), String(header)).toBe(false)
  })
})
