import type { AreaId } from '../areas/registry.js'
import type { CheckContext } from './check-context.js'
import { CheckFailure } from './failures.js'
import type { Observed } from './http-probe.js'
import { excerpt } from './interface-document.js'

/** `201 {"id":"…"}`: an answer in a few words, for `actual`. */
export function shown(observed: Observed): string {
  return `${observed.status} ${excerpt(observed.text, 100)}`
}

/** Fails unless the answer has one of the statuses. */
export function expectStatus(observed: Observed, ...statuses: number[]): void {
  if (statuses.includes(observed.status)) return
  throw new CheckFailure(`${observed.method} ${pathOf(observed.url)} answered ${observed.status}, expected ${statuses.join(' or ')}`, statuses.join(' or '), shown(observed))
}

/** Fails unless the answer has the status and matches the document's description of it. */
export function expectConforms(ctx: CheckContext, area: AreaId, operation: string, observed: Observed, status: number): void {
  expectStatus(observed, status)
  const mismatch = ctx.document.mismatch(area, operation, observed)
  if (mismatch !== undefined) throw new CheckFailure(`the ${status} answer departs from the document: ${mismatch}`, `the documented ${status} answer of ${operation}`, mismatch)
}

/**
 * Fails unless the answer is the D9 error: the status, `error` one of the
 * codes, a `message`, and the documented body of that status.
 */
export function expectError(ctx: CheckContext, area: AreaId, operation: string, observed: Observed, status: number, ...codes: string[]): Record<string, unknown> {
  expectStatus(observed, status)
  const body = objectBody(observed)
  const code = body.error
  if (typeof code !== 'string' || !codes.includes(code)) {
    throw new CheckFailure(`error code ${JSON.stringify(code)}, expected ${codes.join(' or ')}`, `{"error":"${codes.join('" or "')}", …}`, shown(observed))
  }
  const mismatch = ctx.document.mismatch(area, operation, observed)
  if (mismatch !== undefined) throw new CheckFailure(`the ${status} answer departs from the document: ${mismatch}`, `the documented ${status} answer`, mismatch)
  return body
}

/** The JSON object of an answer; fails when the body is not one. */
export function objectBody(observed: Observed): Record<string, unknown> {
  if (!observed.isJson || observed.json === null || typeof observed.json !== 'object' || Array.isArray(observed.json)) {
    throw new CheckFailure(`expected a JSON object, got ${observed.headers.get('content-type') ?? 'no content type'}`, 'a JSON object', shown(observed))
  }
  return observed.json as Record<string, unknown>
}

/** The JSON array of an answer; fails when the body is not one. */
export function arrayBody(observed: Observed): Array<Record<string, unknown>> {
  if (!observed.isJson || !Array.isArray(observed.json)) throw new CheckFailure('expected a JSON array', 'a JSON array', shown(observed))
  return observed.json as Array<Record<string, unknown>>
}

/** Fails with `message` unless `condition` holds. */
export function expectThat(condition: boolean, message: string, expected?: string, actual?: string): asserts condition {
  if (!condition) throw new CheckFailure(message, expected, actual)
}

/** Fails unless two values are equal as JSON. */
export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual)
  const e = JSON.stringify(expected)
  if (a !== e) throw new CheckFailure(`${what} is ${excerpt(a ?? 'undefined', 80)}, expected ${excerpt(e ?? 'undefined', 80)}`, e, a)
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return url
  }
}
