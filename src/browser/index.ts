/**
 * Browser entry of multi-area-mock: the simulator in msw's service worker,
 * with the world optionally kept across page reloads. The only code that
 * imports `msw/browser`.
 *
 * @example
 * import { startBrowserSimulator } from 'multi-area-mock/browser'
 * const { simulator } = await startBrowserSimulator({ seed: 1, scenario: 'default', persist: 'session' })
 */
export { type BrowserSimulator, startBrowserSimulator } from './start-browser-simulator.js'
export type { BrowserSimulatorOptions, PersistMode } from './browser-options.js'
export type { Simulator } from '../simulator/simulator.js'
export type { SimulatorOptions } from '../simulator/options.js'
export type { ChangeListener, SimulatorChange } from '../simulator/events/change-listeners.js'
