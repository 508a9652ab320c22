/**
 * Node entry of multi-area-mock: the HTTP server, for starting it from code.
 *
 * @example
 * import { startServer } from 'multi-area-mock/node'
 * const running = await startServer({ port: 0, scenario: 'empty' })
 */
export type { DispatchMode } from './server/fast-path.js'
export { type RunningServer, type ServerOptions, startServer } from './server/server.js'
export type { ReplayedBundle } from './replay/server-replay.js'
export type { RecordingFile } from './recording/traffic-recording.js'
export { readScenarioFile } from './files/scenario-file.js'
export type { Simulator } from '../simulator/simulator.js'
export {
  currentMockWorld,
  type IncomingRequestLike,
  type MockWorldMiddleware,
  propagateMockWorld,
  type PropagateMockWorldOptions,
} from './propagate-mock-world.js'
export { type IncomingHeadersSource, propagateMockWorldFrom } from './propagate-mock-world-from.js'
