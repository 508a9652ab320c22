/**
 * Recording real traffic into a world (issue 34): what an answer of a real
 * backend shows about the records behind it, and how a section turns what was
 * seen into its part of a scenario. Areas describe their own answers
 * (`AreaDefinition.recording`); the shared accounts describe theirs in
 * `accounts/accounts-recording.ts`; `src/simulator/recording/recorder.ts` runs them.
 */

/** One answer of a real backend, matched to the route that documents it. */
export interface RecordedExchange {
  /** The route's `operationId` within its area (`listUsers`). */
  operationId: string
  /** Path parameters as the route names them, decoded. */
  params: Readonly<Record<string, string>>
  query: URLSearchParams
  status: number
  /**
   * The request's JSON body as sent (`undefined` without one or when it is
   * not JSON). It may hold secrets: a rule copies only the fields it needs,
   * never a password or a token.
   */
  request: unknown
  /** The request body's text, for bodies whose numbers must keep every digit (Area E's amounts). */
  requestText: string | undefined
  /**
   * The answer's JSON body (`undefined` without one). A 2xx body has been
   * checked against the route's documented response schema already.
   */
  response: unknown
  /** The answer body's text, for numbers that must keep every digit. */
  responseText: string | undefined
}

/** What an answer showed about one record or setting. `section` is a scenario key (`accounts`, `core`...). */
export type Observation =
  /** The record exists with these fields (merged over what was seen before: later answers win, key by key). */
  | { kind: 'upsert'; section: string; collection: string; id: string; fields: Readonly<Record<string, unknown>> }
  /** The record is gone (a 404 for it, or its deletion answered). */
  | { kind: 'remove'; section: string; collection: string; id: string }
  /** A setting of the section the answer showed (Area D's token lifetime). */
  | { kind: 'setting'; section: string; key: string; value: unknown }

/** What reading one answer gave: observations, or why it could not be mapped (shown in the CLI's summary). */
export type ObserveResult = Observation[] | { unmapped: string }

/** An area's rules: what each of its operations' answers shows. */
export interface AreaRecording {
  /** The scenario sections the area's answers show records of: a recorded scenario replaces these. */
  sections: readonly string[]
  /** By `operationId`: what an answer shows. An operation not listed is an answer the recorder cannot map. */
  observe: Readonly<Record<string, (exchange: RecordedExchange) => ObserveResult>>
  /** How the area's own section (`AreaDefinition.section`) is made from its records; none when the area shows only shared ones. */
  section?: SectionRecording
}

/** What was recorded in one section: records by collection, in the order first seen, and settings. */
export interface RecordedSection {
  collections: ReadonlyMap<string, ReadonlyMap<string, Readonly<Record<string, unknown>>>>
  settings: ReadonlyMap<string, unknown>
}

/** What a section made of its records: its scenario part, and records it had to leave out (with why). */
export interface SectionScenario<Scenario = unknown> {
  scenario: Scenario
  /** Records seen but not kept (e.g. a delegation to a validator never seen): `collection/id: reason`. */
  left?: readonly string[]
}

/**
 * How one section turns what was recorded into its part of a scenario, which
 * the scenario schema accepts and which, loaded, answers the recorded reads
 * as the backend did. Nothing the traffic did not show is invented: a
 * collection never seen is empty.
 *
 * @example
 * const recording: SectionRecording = { key: 'core', scenario: (seen) => ({ scenario: { products: [...seen.collections.get('products')?.values() ?? []] } }) }
 */
export interface SectionRecording<Scenario = unknown> {
  key: string
  /**
   * `base`: the start scenario's part for this section (`undefined` when it has
   * none), whose settings that are not records (a chain id, a platform status)
   * the recorded part keeps unless the traffic showed them.
   */
  scenario(recorded: RecordedSection, base: unknown): SectionScenario<Scenario>
}

/**
 * Copies the named fields of a JSON object that it holds (and only those), for
 * an `upsert`: a rule never copies a field it did not name.
 *
 * @example
 * pick({ id: 'u1', username: 'ada', password: 'x' }, ['id', 'username']) // { id: 'u1', username: 'ada' }
 */
export function pick(value: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return out
  for (const key of keys) if (Object.hasOwn(value, key)) out[key] = (value as Record<string, unknown>)[key]
  return out
}

/**
 * What an answer no rule reads shows: a client error (4xx) changed nothing,
 * so nothing changes (mapped, nothing kept); a server error or a status the
 * operation does not document leaves the records behind it unknown (not
 * mapped: the summary names it). The same in every area.
 *
 * @example
 * exchange.status === 200 ? [upsert] : nothingShown(exchange)
 */
export function nothingShown({ status }: RecordedExchange): ObserveResult {
  if (status >= 400 && status < 500) return []
  if (status >= 500) return { unmapped: `the backend failed (${status}): the answer shows nothing of its records` }
  return { unmapped: `a ${status} is not documented for this operation` }
}

/**
 * A rule by status: the handler of the answer's status, else `fallback` (`nothingShown` unless given).
 *
 * @example
 * observe: { getToken: byStatus({ 200: read, 404: gone }) }
 */
export function byStatus(
  handlers: Partial<Record<number, (exchange: RecordedExchange) => ObserveResult>>,
  fallback: (exchange: RecordedExchange) => ObserveResult = nothingShown,
): (exchange: RecordedExchange) => ObserveResult {
  return (exchange) => (handlers[exchange.status] ?? fallback)(exchange)
}
