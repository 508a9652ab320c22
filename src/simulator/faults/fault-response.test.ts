import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../kernel/errors/error-codes.js'
import { statusText } from '../../kernel/http/status-text.js'
import { faultCode, faultResponse } from './fault-response.js'

describe('faultCode', () => {
  it("uses the project's own code where one is named after the status (or is its only 500/431 code)", () => {
    expect([400, 401, 404, 405, 408, 409, 413, 415, 429, 431, 500, 502, 503, 504].map(faultCode)).toEqual([
      'bad_request',
      'unauthorized',
      'not_found',
      'method_not_allowed',
      'request_timeout',
      'conflict',
      'payload_too_large',
      'unsupported_media_type',
      'too_many_requests',
      'headers_too_large',
      'internal_error',
      'bad_gateway',
      'service_unavailable',
      'gateway_timeout',
    ])
  })

  it('gives every status from 400 to 599 a snake_case code of its class', () => {
    const known = new Set(Object.keys(ERROR_CODES))
    for (let status = 400; status <= 599; status++) {
      const code = faultCode(status)
      expect(code, String(status)).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
      // A code of the list is only ever used for its own status.
      if (known.has(code)) expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status, code).toBe(status)
      if (statusText(status) === '') expect(code).toBe(status < 500 ? 'client_error' : 'server_error')
    }
    expect([403, 410, 418, 422, 501].map(faultCode)).toEqual(['forbidden', 'gone', 'im_a_teapot', 'unprocessable_entity', 'not_implemented'])
  })
})

describe('faultResponse', () => {
  it('is the D9 body with Retry-After only on 429 and 503', () => {
    const conflict = faultResponse({ status: 409, retryAfter: 5 })
    expect(conflict.status).toBe(409)
    expect(conflict.headers['retry-after']).toBeUndefined()
    const limited = faultResponse({ status: 429 })
    expect(limited.headers['retry-after']).toBe('1')
    expect(faultResponse({ status: 503, retryAfter: 9 }).headers['retry-after']).toBe('9')
  })

  it('gives a 401 the Bearer challenge of its area, and echoes Preference-Applied', () => {
    const reply = faultResponse({ status: 401, area: 'general', preferenceApplied: 'code=401' })
    expect(reply.headers).toMatchObject({ 'www-authenticate': 'Bearer realm="general"', 'preference-applied': 'code=401' })
  })
})
