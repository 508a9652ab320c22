import type * as z from 'zod'
import type { Dispatch } from '../../kernel/routing/dispatcher.js'
import type { SimRequest } from '../../kernel/http/sim-request.js'
import { type RandomState, SeededRandom } from '../../kernel/random/random.js'
import { compileRouteMatcher, type RouteMatcher } from '../../kernel/routing/route-matcher.js'
import { FAULT_STATUS_RANGE, type FaultRule, type FaultRuleInput, type faultRuleViewSchema, type FaultStatus, faultRulesSchema, MAX_FAULT_DELAY_MS } from './fault-rule.js'
import { ScenarioError } from '../../kernel/errors/scenario-error.js'
import { safeParse } from '../../kernel/http/validate.js'

/** Mixed into the world's seed, so fault draws are their own stream and never shift ids or data. */
const FAULT_STREAM = 0x6661756c

/** A rule as `GET /__mock/faults` and `sim.faults.list()` show it: as given, plus how often it fired. */
export type FaultRuleView = z.output<typeof faultRuleViewSchema>

/** What happens to one request instead of (or before) its route. */
export interface FaultDecision {
  /** Milliseconds to wait first. */
  delay: number
  /** Answer with this status (400-599) instead of running the route. */
  status?: FaultStatus
  /** The area of the request: a 401's `WWW-Authenticate` names it as the realm. */
  area?: string
  /** The methods of the request's path, for a 405's `Allow` (set with status 405 only). */
  allowed?: readonly string[]
  retryAfter?: number
  /** Close the connection without an answer. */
  drop?: boolean
  /** What was applied, for the journal: `rule 1: 503`, `Prefer: delay=200`. */
  applied: string
  /** The `Preference-Applied` header value (RFC 7240), when a `Prefer` was honoured. */
  preferenceApplied?: string
}

/**
 * The fault rules of one simulator (or world): which are set, and the decision
 * for each request to an area. Seeded from the world's seed with its own
 * generator, so the same seed and requests fail the same way, and faults never
 * change ids or generated data.
 *
 * @example
 * sim.faults.set([{ method: 'POST', route: '/core/users', status: 503, times: 1 }])
 */
export interface Faults {
  /** The rules in force, with how often each fired. */
  list(): FaultRuleView[]
  /** Replaces every rule (validated; throws `ScenarioError` and changes nothing on a bad rule). */
  set(rules: FaultRuleInput[]): FaultRuleView[]
  /** Appends one rule. */
  add(rule: FaultRuleInput): FaultRuleView[]
  /** Removes every rule; `Prefer` headers still work. */
  clear(): void
}

/** A fault injector's rules, their counts and its draws (`save`, `load`). */
export interface FaultState {
  rules: FaultRule[]
  fired: number[]
  random: RandomState
}

type RouteDispatch = Extract<Dispatch, { kind: 'route' }>

interface ActiveRule {
  rule: FaultRule
  matches: RouteMatcher | undefined
  fired: number
}

/** The `Faults` of a simulator, plus what the request pipeline needs. */
export class FaultInjector implements Faults {
  #rules: ActiveRule[] = []
  readonly #random: SeededRandom

  constructor(seed: number) {
    this.#random = new SeededRandom([seed, FAULT_STREAM])
  }

  list(): FaultRuleView[] {
    return this.#rules.map(({ rule, fired }) => ({ ...rule, fired }))
  }

  set(rules: FaultRuleInput[]): FaultRuleView[] {
    this.#rules = validateFaultRules(rules).map(activate)
    return this.list()
  }

  add(rule: FaultRuleInput): FaultRuleView[] {
    this.#rules.push(...validateFaultRules([rule]).map(activate))
    return this.list()
  }

  clear(): void {
    this.#rules = []
  }

  /** Starts the draws again from `seed` and forgets how often rules fired (reset, scenario load). */
  restart(seed: number, rules: readonly FaultRule[]): void {
    this.#random.seed([seed, FAULT_STREAM])
    this.#rules = rules.map(activate)
  }

  /**
   * The fault for a request that reached an area route, or `undefined` (the
   * common case, cheap: no rules and no `Prefer` header). Every matching rule
   * that fires adds its latency; the first one with a status or `drop` decides
   * the answer. `Prefer: code=503` and `Prefer: delay=200` apply to this
   * request alone, after the rules.
   */
  decide(request: SimRequest, dispatch: RouteDispatch): FaultDecision | undefined {
    const prefer = request.headers.get('prefer')
    if (this.#rules.length === 0 && prefer === null) return undefined
    return this.prefer(this.decideRules(request.method, dispatch), prefer, dispatch)
  }

  /** `true` when a rule could fire for this request: replicas then decide it in the log's order (`decideRules` as a command). */
  mayFire(method: string, dispatch: RouteDispatch): boolean {
    return this.#rules.some((active) => active.fired < (active.rule.times ?? Number.POSITIVE_INFINITY) && this.#targets(active, method, dispatch))
  }

  /** What the rules decide for a request (counting and drawing as they fire), before any `Prefer` header. */
  decideRules(requestMethod: string, dispatch: RouteDispatch): FaultDecision | undefined {
    if (this.#rules.length === 0) return undefined
    const decision: FaultDecision = { delay: 0, applied: '', area: dispatch.mount.area }
    const applied: string[] = []
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod
    this.#rules.forEach((active, index) => {
      const { rule } = active
      if (rule.times !== undefined && active.fired >= rule.times) return
      if (!this.#targets(active, method, dispatch)) return
      const terminal = rule.status !== undefined || rule.drop === true
      // A later error rule cannot change an answer already decided: it does not fire (nor count).
      if (terminal && (decision.status !== undefined || decision.drop)) return
      if (rule.probability !== undefined && rule.probability < 1 && this.#random.next() >= rule.probability) return
      active.fired++
      const parts: string[] = []
      if (rule.latency !== undefined) {
        const delay = this.#delay(rule.latency)
        decision.delay += delay
        parts.push(`${delay}ms`)
      }
      if (rule.status !== undefined) {
        decision.status = rule.status
        if (rule.retryAfter !== undefined) decision.retryAfter = rule.retryAfter
        parts.push(String(rule.status))
      }
      if (rule.drop) {
        decision.drop = true
        parts.push('drop')
      }
      applied.push(`rule ${index + 1}: ${parts.join(' ')}`)
    })
    if (applied.length === 0) return undefined
    decision.applied = applied.join('; ')
    return decision
  }

  /** A decision of the rules (or none) with this request's `Prefer` header applied, its 405's allowed methods added. */
  prefer(ruled: FaultDecision | undefined, prefer: string | null, dispatch: RouteDispatch): FaultDecision | undefined {
    if (prefer === null && ruled === undefined) return undefined
    const decision: FaultDecision = ruled ?? { delay: 0, applied: '', area: dispatch.mount.area }
    const applied = decision.applied === '' ? [] : [decision.applied]
    if (prefer !== null) this.#prefer(prefer, decision, applied)
    if (applied.length === 0) return undefined
    if (decision.status === 405) decision.allowed = dispatch.mount.routes.filter((route) => route.path === dispatch.route.path).map((route) => route.method)
    decision.applied = applied.join('; ')
    return decision
  }

  /** How often each rule fired and where the draws stand: what a replica joining from a snapshot needs to decide alike. */
  save(): FaultState {
    return { rules: this.#rules.map(({ rule }) => rule), fired: this.#rules.map(({ fired }) => fired), random: this.#random.getState() }
  }

  load(state: FaultState): void {
    this.#rules = state.rules.map(activate)
    state.fired.forEach((fired, index) => {
      if (this.#rules[index]) this.#rules[index].fired = fired
    })
    this.#random.setState(state.random)
  }

  #targets(active: ActiveRule, method: string, dispatch: RouteDispatch): boolean {
    const { rule } = active
    if (rule.method !== undefined && rule.method !== (method === 'HEAD' ? 'GET' : method)) return false
    if (rule.area !== undefined && rule.area !== dispatch.mount.area) return false
    return !active.matches || active.matches({ pathname: dispatch.url.pathname, prefix: dispatch.mount.prefix, pattern: dispatch.route.path })
  }

  /** RFC 7240 `Prefer`: `code=404` (any 400-599) and `delay=200` (Prism's convention); other preferences are ignored. */
  #prefer(header: string, decision: FaultDecision, applied: string[]): void {
    const honoured: string[] = []
    for (const part of header.split(/[,;]/)) {
      const [name, value] = part.split('=').map((piece) => piece.trim().toLowerCase().replace(/^"|"$/g, ''))
      if (name === 'code' && isFaultStatus(value)) {
        decision.status = Number(value)
        decision.drop = false
        honoured.push(`code=${value}`)
      } else if (name === 'delay' && /^\d+$/.test(value ?? '')) {
        const delay = Math.min(Number(value), MAX_FAULT_DELAY_MS)
        decision.delay += delay
        honoured.push(`delay=${delay}`)
      }
    }
    if (honoured.length === 0) return
    decision.preferenceApplied = honoured.join(', ')
    applied.push(`Prefer: ${decision.preferenceApplied}`)
  }

  #delay(latency: number | [number, number]): number {
    if (typeof latency === 'number') return latency
    const [min, max] = latency
    return min + Math.floor(this.#random.next() * (max - min + 1))
  }
}

/**
 * Checks a list of fault rules; a bad one throws a `ScenarioError` naming
 * `subject` and the JSON path of each problem.
 *
 * @example
 * validateFaultRules([{ status: 302 }], 'faults option') // throws: Invalid faults option: 0.status: …
 */
export function validateFaultRules(rules: unknown, subject = 'fault rules'): FaultRule[] {
  const result = safeParse(faultRulesSchema, rules)
  if (!result.success) throw new ScenarioError(subject, result.error.issues)
  return result.data
}

/** `true` for three digits from 400 to 599 (`Prefer: code=…`). */
function isFaultStatus(text: string | undefined): boolean {
  return text !== undefined && /^\d{3}$/.test(text) && Number(text) >= FAULT_STATUS_RANGE.min && Number(text) <= FAULT_STATUS_RANGE.max
}

function activate(rule: FaultRule): ActiveRule {
  return { rule, matches: rule.route === undefined ? undefined : compileRouteMatcher(rule.route), fired: 0 }
}
