import { describe, expect, it } from 'vitest'
import { compileRouteMatcher } from './route-matcher.js'

describe('compileRouteMatcher', () => {
  const user = { pathname: '/admin/api/v1.2/users/42', prefix: '/admin', pattern: '/api/v1.2/users/{userId}' }
  const list = { pathname: '/admin/api/v1.2/users', prefix: '/admin', pattern: '/api/v1.2/users' }
  const notFound = { pathname: '/admin/api/v1.2/nothing', prefix: '/admin', pattern: null }

  it('matches a route pattern with or without the prefix, whatever the parameter names', () => {
    for (const spec of ['/api/v1.2/users/{userId}', '/api/v1.2/users/{id}', '/admin/api/v1.2/users/{x}']) expect(compileRouteMatcher(spec)(user), spec).toBe(true)
    expect(compileRouteMatcher('/api/v1.2/users/{id}')(list)).toBe(false)
    expect(compileRouteMatcher('/api/v1.2/users/{id}')(notFound)).toBe(false)
  })

  it('matches globs: * within a segment, ** across segments', () => {
    expect(compileRouteMatcher('/admin/api/v1.2/users/*')(user)).toBe(true)
    expect(compileRouteMatcher('/api/*/users/*')(user)).toBe(true)
    expect(compileRouteMatcher('/admin/*')(user)).toBe(false)
    expect(compileRouteMatcher('/admin/**')(user)).toBe(true)
    expect(compileRouteMatcher('/admin/**')(notFound)).toBe(true)
  })

  it('matches an exact path with or without the prefix, and nothing else', () => {
    expect(compileRouteMatcher('/admin/api/v1.2/users')(list)).toBe(true)
    expect(compileRouteMatcher('/api/v1.2/users')(list)).toBe(true)
    expect(compileRouteMatcher('/api/v1.2/users')(user)).toBe(false)
    expect(compileRouteMatcher('/users')(list)).toBe(false)
  })
})
