import type { AnyArea } from '../../areas/area.js'
import { redactSecretValues } from '../../kernel/http/secret-key.js'
import { issuesToDetails } from '../../kernel/http/validate.js'
import type { Dispatcher } from '../../kernel/routing/dispatcher.js'
import type { RouteDefinition } from '../../kernel/routing/route.js'
import type { Observation, RecordedExchange, RecordedSection, SectionRecording } from '../../world/recording.js'
import { REDACTED } from '../journal/redact.js'
import type { ScenarioInput } from '../state/scenario-schema.js'

/** One answer as the way in saw it: a proxied request (`serve --record`) or a HAR entry. */
export interface TrafficAnswer {
  method: string
  /** The request's URL at the simulator: its path is the area's mount plus the route (`http://127.0.0.1:3000/admin/api/v1.2/users`). */
  url: string
  status: number
  requestText?: string | undefined
  responseText?: string | undefined
  /** Why the bodies could not be read (over the size limit, an unknown encoding): the answer is counted as not mapped. */
  unreadable?: string
}

/** What one area's traffic gave, for the CLI's summary line. */
export interface AreaRecordingSummary {
  area: string
  /** Records of the recorded scenario this area's answers showed, by `section.collection`. */
  kept: Record<string, number>
  /** Answers read into records. */
  mapped: number
  /** Answers that showed nothing the recorder could keep. */
  unmapped: number
  /** The first few of them: `GET /admin/... (404): why`. */
  examples: string[]
  /** Records seen but left out of the scenario, with why. */
  left: string[]
}

/** What the recorder is given. */
export interface RecorderOptions {
  /** Matches traffic to routes: a simulator's route table, its areas at their mounts. */
  dispatcher: Dispatcher
  /** The areas (definitions) whose traffic is recorded: the proxied ones, or every area for a HAR file. */
  areas: readonly AnyArea[]
  /** The shared sections' recordings (the accounts'), besides each area's own. */
  shared: readonly SectionRecording[]
  /** The scenario the recorded sections are merged into: the one the server started with. */
  base: ScenarioInput
  /** The recorded scenario's `description`. */
  description: string
  /** The recorded scenario's `seed` (the server's), so the areas it did not record replay as they were. */
  seed?: number
}

/** Unmapped answers named per area in the summary. */
const EXAMPLES_KEPT = 3

/**
 * Turns real traffic into a scenario (issue 34): each answer is matched to the
 * route that documents it, checked against its documented response, and read
 * by the area's own rules into records; records merge as answers arrive (a
 * later answer about a record updates it, a 404 or a delete removes it); the
 * scenario is the start scenario with each recorded section replaced by what
 * was seen, and nothing more.
 *
 * @example
 * const recorder = new Recorder({ dispatcher: sim.dispatcher, areas: [adminArea], shared: [accountsRecording], base, description: 'Recorded' })
 * recorder.record({ method: 'GET', url: 'http://127.0.0.1:3000/admin/api/v1.2/users', status: 200, responseText })
 * writeFileSync('recorded.json', JSON.stringify(recorder.scenario(), null, 2))
 */
export class Recorder {
  readonly #options: RecorderOptions
  readonly #areas: ReadonlyMap<string, AnyArea>
  /** section → collection → id → fields, in the order first seen. */
  readonly #collections = new Map<string, Map<string, Map<string, Record<string, unknown>>>>()
  readonly #settings = new Map<string, Map<string, unknown>>()
  /** Which records each area's answers showed (`section/collection/id`). */
  readonly #shown = new Map<string, Set<string>>()
  readonly #counts = new Map<string, { mapped: number; unmapped: number; examples: string[] }>()
  /** The last answer read, and whether it was mapped. */
  #last: { answer: TrafficAnswer; mapped: boolean } | undefined

  constructor(options: RecorderOptions) {
    this.#options = options
    this.#areas = new Map(options.areas.map((area) => [area.id, area]))
    for (const area of options.areas) this.#counts.set(area.id, { mapped: 0, unmapped: 0, examples: [] })
  }

  /** The scenario sections the recorded areas show: the ones the recorded scenario replaces. */
  get sections(): string[] {
    return [...new Set(this.#options.areas.flatMap((area) => area.recording?.sections ?? []))]
  }

  /**
   * Reads one answer. Answers of areas not recorded (and paths of no area, a
   * CORS preflight) are ignored; `true` when the answer was an area's.
   */
  record(answer: TrafficAnswer): boolean {
    const method = answer.method.toUpperCase()
    if (method === 'OPTIONS' || method === 'HEAD') return false
    const dispatch = this.#options.dispatcher.dispatch({ method, url: answer.url })
    const area = dispatch?.mount === undefined ? undefined : this.#areas.get(dispatch.mount.area)
    if (area === undefined || dispatch === undefined) return false
    const counts = this.#counts.get(area.id)!
    // The answer just read, again (a page polled, a load test): reading it again would change nothing.
    if (this.#last !== undefined && sameAnswer(this.#last.answer, answer)) {
      counts[this.#last.mapped ? 'mapped' : 'unmapped']++
      return true
    }
    const where = `${method} ${new URL(answer.url).pathname} (${answer.status})`
    const result =
      answer.unreadable !== undefined
        ? { unmapped: answer.unreadable }
        : dispatch.kind === 'route'
          ? this.#observe(area, dispatch.route, dispatch.params, dispatch.url, answer)
          : { unmapped: 'no route of the area has this path and method' }
    this.#last = { answer, mapped: Array.isArray(result) }
    if (!Array.isArray(result)) {
      counts.unmapped++
      if (counts.examples.length < EXAMPLES_KEPT) counts.examples.push(`${where}: ${result.unmapped}`)
      return true
    }
    counts.mapped++
    const allowed = new Set(area.recording?.sections ?? [])
    for (const observation of result) if (allowed.has(observation.section)) this.#apply(area.id, observation)
    return true
  }

  /** The recorded scenario: the base with every recorded section replaced by what the traffic showed. */
  scenario(): ScenarioInput {
    const { $schema: _schema, description: _description, seed: baseSeed, ...rest } = this.#options.base as ScenarioInput & Record<string, unknown>
    const seed = this.#options.seed ?? baseSeed
    const document: Record<string, unknown> = { description: this.#options.description, ...(seed === undefined ? {} : { seed }), ...rest }
    for (const { key, recording } of this.#sectionRecordings()) document[key] = recording.scenario(this.#recorded(key), rest[key]).scenario
    return document as ScenarioInput
  }

  /** One summary per recorded area, in the order the areas were given. */
  summary(): AreaRecordingSummary[] {
    const left = this.#sectionRecordings().flatMap(({ key, recording }) =>
      (recording.scenario(this.#recorded(key), (this.#options.base as Record<string, unknown>)[key]).left ?? []).map((why) => `${key}.${why}`),
    )
    return this.#options.areas.map((area) => {
      const counts = this.#counts.get(area.id)!
      const kept: Record<string, number> = {}
      for (const record of this.#shown.get(area.id) ?? []) {
        const [section, collection, id] = record.split('\u0000') as [string, string, string]
        if (!this.#collections.get(section)?.get(collection)?.has(id)) continue
        // Left out by its section (`collection/id: why`): not in the file, so not kept.
        if (left.some((line) => line.startsWith(`${section}.${collection}/${id}: `))) continue
        kept[`${section}.${collection}`] = (kept[`${section}.${collection}`] ?? 0) + 1
      }
      const own = new Set(area.recording?.sections ?? [])
      return { area: area.id, kept, mapped: counts.mapped, unmapped: counts.unmapped, examples: [...counts.examples], left: left.filter((line) => own.has(line.split('.')[0]!)) }
    })
  }

  #observe(area: AnyArea, route: RouteDefinition, params: Readonly<Record<string, string>>, url: URL, answer: TrafficAnswer) {
    const rule = route.operationId === undefined ? undefined : area.recording?.observe[route.operationId]
    if (rule === undefined) return { unmapped: 'the area keeps no records from this operation' }
    const response = parseJson(answer.responseText)
    const documented = answer.status >= 200 && answer.status < 300 ? route.responses?.[answer.status]?.body : undefined
    if (documented !== undefined) {
      // Devtools and some proxies leave bodies out of a HAR file; such an answer shows nothing.
      if (response === undefined) return { unmapped: answer.responseText ? 'the answer is not JSON' : 'the traffic holds no body for this answer' }
      const checked = documented.safeParse(response)
      if (!checked.success) return { unmapped: `the answer is not as documented (${firstProblem(checked.error.issues)})` }
    }
    const exchange: RecordedExchange = {
      operationId: route.operationId!,
      params,
      query: url.searchParams,
      status: answer.status,
      request: parseJson(answer.requestText),
      requestText: answer.requestText,
      response,
      responseText: answer.responseText,
    }
    try {
      return rule(exchange)
    } catch (error) {
      return { unmapped: error instanceof Error ? error.message : String(error) }
    }
  }

  #apply(area: string, observation: Observation): void {
    if (observation.kind === 'setting') {
      map(this.#settings, observation.section).set(observation.key, withoutCredentials(observation.value))
      return
    }
    const records = map(map(this.#collections, observation.section), observation.collection)
    let shown = this.#shown.get(area)
    if (shown === undefined) this.#shown.set(area, (shown = new Set()))
    shown.add(`${observation.section}\u0000${observation.collection}\u0000${observation.id}`)
    if (observation.kind === 'remove') {
      records.delete(observation.id)
      return
    }
    records.set(observation.id, { ...records.get(observation.id), ...(withoutCredentials(observation.fields) as Record<string, unknown>) })
  }

  #recorded(section: string): RecordedSection {
    return { collections: this.#collections.get(section) ?? new Map(), settings: this.#settings.get(section) ?? new Map() }
  }

  /** The recordings of the recorded sections, shared ones first (the scenario's key order). */
  #sectionRecordings(): Array<{ key: string; recording: SectionRecording }> {
    const all = [...this.#options.shared, ...this.#options.areas.flatMap((area) => (area.recording?.section ? [area.recording.section] : []))]
    const wanted = new Set(this.sections)
    return all.filter((recording) => wanted.has(recording.key)).map((recording) => ({ key: recording.key, recording }))
  }
}

/**
 * A copy of what an area's rule kept with every credential in its texts
 * (`Bearer …`, a JWT) redacted, at any depth: rules copy only fields they
 * need, never a secret's, but a free text (a message) may hold one all the same.
 */
function withoutCredentials(value: unknown): unknown {
  if (typeof value === 'string') return redactSecretValues(value, REDACTED)
  if (Array.isArray(value)) return value.map(withoutCredentials)
  // Only JSON's objects are copied; anything else a rule kept is left as it is.
  if (value === null || typeof value !== 'object' || ![Object.prototype, null].includes(Object.getPrototypeOf(value))) return value
  const copy: Record<string, unknown> = {}
  // defineProperty: a `__proto__` key stays a plain key.
  for (const [key, inner] of Object.entries(value)) Object.defineProperty(copy, key, { value: withoutCredentials(inner), enumerable: true, writable: true, configurable: true })
  return copy
}

/** The same request answered the same way (the observations it gives are the same, and applying them twice changes nothing). */
function sameAnswer(a: TrafficAnswer, b: TrafficAnswer): boolean {
  return (
    a.url === b.url &&
    a.status === b.status &&
    a.method.toUpperCase() === b.method.toUpperCase() &&
    a.responseText === b.responseText &&
    a.requestText === b.requestText &&
    a.unreadable === b.unreadable
  )
}

function map<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let inner = outer.get(key)
  if (inner === undefined) outer.set(key, (inner = new Map()))
  return inner
}

/** The first problem of an answer not as documented, as a validation error names it (`0.email: …`). */
function firstProblem(issues: Parameters<typeof issuesToDetails>[0]): string {
  const [detail] = issuesToDetails(issues)
  if (detail === undefined) return 'invalid'
  return detail.path === '' ? detail.message : `${detail.path}: ${detail.message}`
}

/** A body's JSON, `undefined` when there is none or it is not JSON. */
function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
