import type { Reply } from '../kernel/http/reply.js'
import type { Command } from './log/command.js'
import type { SimRequest } from '../kernel/http/sim-request.js'
import type { Dispatch, Dispatcher } from '../kernel/routing/dispatcher.js'
import { SimulatorInstance } from './simulator-instance.js'
import type { Upstream } from './pipeline/request-pipeline.js'
import type { SimulatorOptions } from './options.js'
import type { Simulator } from './simulator.js'
import type { FamilyShared } from './log/world-family.js'
import type { StateLifecycle } from './state/state-lifecycle.js'
import type { ScenarioFileEvent } from './events/scenario-file-event.js'

/**
 * What the project's own ways in (the Node server, its proxy, the tests) use
 * of a simulator beyond the public `Simulator`: the route table and the
 * pipeline itself. Not exported from any package entry, so it can change
 * with the code behind it.
 */
export interface SimulatorEngine extends Simulator {
  /** The compiled route table (control API and areas). */
  readonly dispatcher: Dispatcher
  /** Answers a request from the route table, without a Fetch `Request` or `Response`; `undefined` when no area claims it. */
  reply(request: SimRequest): Promise<Reply> | undefined
  /** A proxied area's request, answered by `upstream` through the same pipeline (world, faults, latency, journal). */
  forward(request: SimRequest, dispatch: Dispatch, upstream: Upstream): Promise<Reply>
  /** What the family's worlds share (issue 33): its order of commands (`log`), what a store keeps and replays, and its snapshots. */
  readonly family: FamilyShared<SimulatorInstance>
  /** The default world's lifecycle: what `reset()` returns to, its clock and fault rules (`save`, `restore`). */
  readonly lifecycle: StateLifecycle
  /** The options it was made with. */
  readonly options: SimulatorOptions
  /** The isolated world it is; `null` for the default world. */
  readonly worldId: string | null
  /** Its writes: what seals a command's passwords, as a store or a bundle keeps it. */
  readonly writes: { seal(command: Command): Promise<Command> }
  /** Seeds the starting scenario again as at instant `at` (ms): replicas seed the same world. */
  restartAt(at: number): Promise<void>
  /** Follows a watched scenario file's news (`serve --watch`): the `scenario-file` event of its `/__mock/events` streams. */
  onScenarioFile(listener: (event: ScenarioFileEvent) => void): () => void
  /** Tells the world's followers that its watched scenario file changed (`serve --watch`). */
  reportScenarioFile(event: ScenarioFileEvent): void
}

/**
 * The engine of a simulator made by `createSimulator`.
 *
 * @example
 * const reply = await engineOf(sim).reply(fromFetchRequest(new Request('http://x/core/users')))
 */
export function engineOf(simulator: Simulator): SimulatorEngine {
  if (!(simulator instanceof SimulatorInstance)) throw new TypeError('Expected a simulator made by createSimulator().')
  return simulator
}
