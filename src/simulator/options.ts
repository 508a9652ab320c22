import type { AreaId, AreaOptions } from '../areas/area.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { Clock } from '../kernel/time/clock.js'
import type { WorldLimits } from '../world/world.js'
import type { FaultRuleInput } from './fault-rule.js'
import type { ScenarioInput } from './scenario-schema.js'
import type { WorldsOptions } from './worlds.js'

/** The seed used when none is given, so two runs agree by default (D24). */
export const DEFAULT_SEED = 1

export interface SimulatorOptions extends AreaOptions {
  /** Seed of every random value and id (D24). Default: the scenario's, else 1. */
  seed?: number
  /** A frozen ISO instant (`'2026-01-01T00:00:00Z'`), `'system'` (default) or a `Clock`; movable either way (`sim.clock`). */
  clock?: string | Clock
  /** A built-in or registered scenario name, or a scenario object. Default `'default'`. */
  scenario?: string | ScenarioInput
  /** Extra named scenarios, loadable by name like the built-ins (e.g. from files). */
  scenarios?: Record<string, ScenarioInput>
  /** Which areas to mount. Default: all. */
  areas?: AreaId[]
  /** Per-area base URL: absolute (`https://admin.example.com`) or a path prefix. Default: the D1 prefixes. */
  baseUrls?: Partial<Record<AreaId, string>>
  /** Areas also mounted at `/` (D2). Two that define the same route are refused. */
  root?: AreaId[]
  /** Body and batch limits (D11, D15). */
  limits?: Partial<WorldLimits>
  /** Called with unexpected errors (bugs), which answer 500 `internal_error`. */
  onInternalError?: (error: unknown, request: SimRequest) => void
  /** Request journal: entries kept (default 1,000; 0 turns it off) and characters kept of each body (default 8,192). */
  journal?: { size?: number; bodyLimit?: number }
  /** Fault rules in force from the start, before the scenario's own `faults`. */
  faults?: FaultRuleInput[]
  /** Isolated worlds (`sim.worlds`, `POST /__mock/worlds`): how many at once, when idle ones expire. */
  worlds?: WorldsOptions
}
