/**
 * Node entry of multi-area-mock: the HTTP server, for starting it from code.
 *
 * @example
 * import { startServer } from 'multi-area-mock/node'
 * const running = await startServer({ port: 0, scenario: 'empty' })
 */
export { DISPATCH_MODES, type DispatchMode } from './fast-path.js'
export { type RunningServer, type ServerOptions, startServer } from './server.js'
export { looksLikePath, readScenarioFile } from './scenario-file.js'
export {
  currentMockWorld,
  type IncomingRequestLike,
  type MockWorldMiddleware,
  propagateMockWorld,
  type PropagateMockWorldOptions,
} from './propagate-mock-world.js'
