import type { AreaId } from '../areas/registry.js'

/** What became of one check. */
export type CheckStatus = 'pass' | 'fail' | 'skip'

/** Names of the values a check may need from the person running it (`--fixture name=value`). */
export type FixtureName = 'product' | 'resource' | 'token' | 'validator' | 'signature-mode' | 'chain-id' | 'jwt-secret' | 'expired-token' | 'login'

/** One check's outcome, as the table, the JUnit and the JSON reports show it. */
export interface CheckResult {
  /** Stable name, e.g. `admin.list-users.status-filter`. */
  name: string
  area: AreaId
  /** The operation it exercises, as the interface writes it: `GET /api/v1.2/users`. */
  operation: string
  /** What it holds the implementation to, in a few words. */
  title: string
  status: CheckStatus
  /** One line: why it failed or was skipped; empty on a pass. */
  reason: string
  /** On a failure, when there is one thing to compare: what the interface says and what came back. */
  expected?: string
  actual?: string
  durationMs: number
}

/** Options of `verify()`; the CLI's flags map onto them one to one. */
export interface VerifyOptions {
  /** Origin of an implementation with every area at its usual prefix (`/admin`, `/core`, …), e.g. `https://staging.example.com`. */
  target?: string | undefined
  /** Base URL per area, overriding `target` for that area: `{ admin: 'https://users.example.com/api' }`. */
  bases?: Partial<Record<AreaId, string | undefined>> | undefined
  /** Only these areas' checks (default: every area with a base URL). */
  areas?: AreaId[] | undefined
  /** Only reads: every check that would create or change something is skipped. */
  readOnly?: boolean | undefined
  /** Values the checks cannot create themselves: `{ validator: '0x…', product: 'prod-1001' }`. */
  fixtures?: Partial<Record<FixtureName, string | undefined>> | undefined
  /** Milliseconds each request may take (default 10,000). */
  timeoutMs?: number | undefined
  /** Headers sent with every request, e.g. `{ 'x-mock-world': 'ci' }`. */
  headers?: Record<string, string> | undefined
  /** Only the checks whose name starts with one of these (`admin.`, `ledger.delegate`). */
  only?: string[] | undefined
  /** Called after each check, e.g. to show progress. */
  onResult?: ((result: CheckResult) => void) | undefined
}

/** Counts over every result, and the score: passed / (passed + failed). */
export interface VerifySummary {
  total: number
  passed: number
  failed: number
  skipped: number
  /** Percent of the checks that ran and passed, 0–100 (100 when none ran). */
  score: number
}

/** Everything one run found. */
export interface VerifyReport {
  /** The base URL each area was checked at. */
  bases: Partial<Record<AreaId, string>>
  /** Prefix of every name, username and id this run created (`mam-verify-k3x9q-`). */
  prefix: string
  startedAt: string
  durationMs: number
  results: CheckResult[]
  summary: VerifySummary
  /** What the run created and could not remove again (e.g. no Area A to delete users with). */
  leftBehind: string[]
}
