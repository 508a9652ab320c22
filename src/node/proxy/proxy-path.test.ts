import { describe, expect, it } from 'vitest'
import { leavesBasePath } from './proxy-path.js'

describe('leavesBasePath', () => {
  it('is true for a path an upstream could resolve above its base: encoded slashes or backslashes, dot segments, once or twice encoded', () => {
    for (const rest of [
      '/..%2Fbilling-internal/x',
      '/..%2fbilling-internal/x',
      '/a%2F..%2F..%2Fb',
      '/users%2Fx',
      '/..%5Cbilling',
      '/..%5cbilling',
      '/a\\b',
      '/%2e%2e/billing',
      '/%2E./billing',
      '/./x',
      '/../x',
      '/x/..',
      '/..%252Fbilling',
      '/%252e%252e/billing',
      '/%25252e%25252e/billing',
      '/..%255Cbilling',
      '/..;/billing',
      '/..;jsessionid=1/billing',
      '/.%3B/billing',
      '/..%3b/billing',
    ]) {
      expect(leavesBasePath(rest), rest).toBe(true)
    }
  })

  it('is false for ordinary paths, dots inside a name and encoded characters that are not separators', () => {
    for (const rest of ['', '/', '/api/v1.2/users', '/files/report..pdf', '/.well-known/x', '/...', '/a%20b', '/caf%C3%A9', '/%ff', '/%zz', '/a;b=1', '/100%25']) {
      expect(leavesBasePath(rest), rest).toBe(false)
    }
  })
})
