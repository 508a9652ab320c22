/**
 * `multi-area-mock/testcontainers`: the simulator server as a container in a
 * Testcontainers for Node test (`testcontainers` 11, an optional peer), from
 * the image the repository's Dockerfile builds (docs/container.md).
 *
 * @example
 * import { MultiAreaMockContainer } from 'multi-area-mock/testcontainers'
 * const mock = await new MultiAreaMockContainer('multi-area-mock:latest').withSeed(1).start()
 * const users = await (await fetch(`${mock.baseUrl}/core/users`)).json()
 * await mock.stop()
 */
export { DEFAULT_MULTI_AREA_MOCK_IMAGE, MULTI_AREA_MOCK_PORT, MultiAreaMockContainer } from './multi-area-mock-container.js'
export { StartedMultiAreaMockContainer } from './started-multi-area-mock-container.js'
export { type ClockView, type CreateMockWorldOptions, MockWorld, type MockServerOptions } from '../testing/mock-world.js'
export { MockServerError } from '../testing/mock-server.js'
export type { ScenarioInput } from '../simulator/state/scenario-schema.js'
export type { WorldBundle } from '../simulator/history/world-bundle.js'
