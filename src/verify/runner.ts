import type { AreaId } from '../areas/registry.js'
import { ALL_AREAS } from '../areas/registry.js'
import type { Check } from './check.js'
import { CheckContext, type RunSettings } from './check-context.js'
import { selectChecks } from './check-registry.js'
import { CheckFailure, CheckSkipped, ProbeError } from './failures.js'
import { InterfaceDocument } from './interface-document.js'
import type { CheckResult, VerifyOptions, VerifyReport, VerifySummary } from './types.js'

/** Default time each request may take. */
export const DEFAULT_VERIFY_TIMEOUT = 10_000

/** What every name, username and id a run creates starts with: recognisable, so it can be found and removed by hand. */
export const VERIFY_PREFIX = 'mam-verify-'

/**
 * Runs the conformance checks against an implementation over plain HTTP and
 * answers what each found. Never throws for anything the target does: a
 * target that is down, slow or answers HTML gives one failed line per check.
 *
 * @example
 * import { verify } from 'multi-area-mock/verify'
 * const report = await verify({ target: 'http://127.0.0.1:4000', fixtures: { product: 'prod-1001' } })
 * expect(report.summary.failed).toBe(0)
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const started = Date.now()
  const bases = resolveBases(options)
  const areas = options.areas ?? (Object.keys(bases) as AreaId[])
  const prefix = `${VERIFY_PREFIX}${Math.random().toString(36).slice(2, 7)}-`
  const settings: RunSettings = {
    bases,
    document: await InterfaceDocument.generate(),
    fixtures: options.fixtures ?? {},
    prefix,
    readOnly: options.readOnly ?? false,
    timeoutMs: options.timeoutMs ?? DEFAULT_VERIFY_TIMEOUT,
    headers: options.headers ?? {},
    counter: { next: 0 },
    leftBehind: [],
  }
  const results: CheckResult[] = []
  for (const item of selectChecks(areas, options.only)) {
    const result = await runCheck(item, settings)
    results.push(result)
    options.onResult?.(result)
  }
  return { bases, prefix, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, results, summary: summarise(results), leftBehind: settings.leftBehind }
}

async function runCheck(item: Check, settings: RunSettings): Promise<CheckResult> {
  const base = { name: item.name, area: item.area, operation: item.operation, title: item.title }
  const started = performance.now()
  const done = (status: CheckResult['status'], reason = '', compared: { expected?: string | undefined; actual?: string | undefined } = {}): CheckResult => ({
    ...base,
    status,
    reason,
    ...(compared.expected !== undefined ? { expected: compared.expected } : {}),
    ...(compared.actual !== undefined ? { actual: compared.actual } : {}),
    durationMs: Math.round(performance.now() - started),
  })
  if (settings.bases[item.area] === undefined) return done('skip', `no base URL for area ${item.area}`)
  if (item.writes && settings.readOnly) return done('skip', '--read-only: this check creates or changes data')
  const ctx = new CheckContext(settings)
  try {
    await item.run(ctx)
    return done('pass')
  } catch (error) {
    if (error instanceof CheckSkipped) return done('skip', error.message)
    if (error instanceof CheckFailure) return done('fail', error.message, { expected: error.expected, actual: error.actual })
    if (error instanceof ProbeError) return done('fail', error.message)
    // A bug in the check itself: still one line, never a crash of the run.
    return done('fail', `verify could not complete the check: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await ctx.cleanUp()
  }
}

/** The base URL of each area: `--base` first, then the target plus the area's usual prefix (D1). */
export function resolveBases(options: Pick<VerifyOptions, 'target' | 'bases'>): Partial<Record<AreaId, string>> {
  const bases: Partial<Record<AreaId, string>> = {}
  const target = options.target?.replace(/\/+$/, '')
  for (const area of ALL_AREAS) {
    const given = options.bases?.[area.id]
    if (given !== undefined) bases[area.id] = given.replace(/\/+$/, '')
    else if (target !== undefined) bases[area.id] = `${target}${area.prefix}`
  }
  return bases
}

function summarise(results: readonly CheckResult[]): VerifySummary {
  const count = (status: CheckResult['status']) => results.filter((result) => result.status === status).length
  const passed = count('pass')
  const failed = count('fail')
  return { total: results.length, passed, failed, skipped: count('skip'), score: passed + failed === 0 ? 100 : Math.round((passed / (passed + failed)) * 1000) / 10 }
}
