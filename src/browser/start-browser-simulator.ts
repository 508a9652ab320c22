import { type SetupWorker, setupWorker } from 'msw/browser'
import type { Simulator } from '../simulator/simulator.js'
import { BROWSER_DEFAULTS } from './browser-defaults.js'
import type { BrowserSimulatorOptions } from './browser-options.js'
import { DeferredSimulatorHandler } from './deferred-handler.js'
import { fetchScenario, isScenarioUrl } from './scenario-fetch.js'

/** A simulator answering in the browser's service worker. */
export interface BrowserSimulator {
  readonly simulator: Simulator
  readonly worker: SetupWorker
  /** `true` when the world came from storage rather than from seeding the scenario. */
  readonly restored: boolean
  /** Saves the world now (after in-process changes through `sim.db` or `sim.clock`); no-op without `persist`. */
  save(): void
  /** Stops answering requests and saving. The saved world stays for the next start. */
  stop(): void
}

/**
 * Starts the simulator in msw's service worker: every `fetch` to an area
 * prefix (`/admin`, `/core`, ...) or `/__mock` is answered in the browser;
 * anything else goes to the network untouched. Run `npx msw init public/ --save`
 * once so `/mockServiceWorker.js` is served.
 *
 * msw registers its worker while the simulator loads (its own chunk, see
 * `prepareBrowserSimulator`) and seeds; it resolves once both are done. An
 * invalid option still rejects with a `ConfigError`, with the worker stopped.
 *
 * @example
 * import { startBrowserSimulator } from 'multi-area-mock/browser'
 * await startBrowserSimulator({ seed: 1, scenario: 'default', persist: 'session' })
 */
export async function startBrowserSimulator(options: BrowserSimulatorOptions = {}): Promise<BrowserSimulator> {
  // What msw's start needs is read as given; the schema checks every option once the simulator has loaded.
  const given: Partial<BrowserSimulatorOptions> = typeof options === 'object' && options !== null ? options : {}
  // The simulator (zod, faker, the areas): a chunk of its own in an app's bundle, loaded while msw's worker starts.
  const loading = import('./prepare-browser-simulator.js')
  // Before the worker starts, so a scenario URL is fetched from the network.
  const fetched = isScenarioUrl(given.scenario)
    ? await fetchScenario(given.scenario, (input, init) => fetch(input, init), globalThis.location?.href).catch(failed(loading))
    : undefined
  const preparing = loading.then(({ prepareBrowserSimulator }) => prepareBrowserSimulator(options, fetched))
  // A scenario file that could not be had starts no worker: this rejects with the options'
  // problem, else the file's (a ConfigError naming the URL), as the schema's checks come first.
  if (fetched !== undefined && 'problem' in fetched) await preparing

  const worker = setupWorker(new DeferredSimulatorHandler(preparing))
  const starting = (async () =>
    worker.start({
      quiet: given.quiet ?? BROWSER_DEFAULTS.quiet,
      onUnhandledRequest: given.onUnhandledRequest ?? BROWSER_DEFAULTS.onUnhandledRequest,
      ...(given.serviceWorker ? { serviceWorker: definedOnly(given.serviceWorker) } : {}),
    }))()
  const [prepared, started] = await Promise.allSettled([preparing, starting])
  if (prepared.status === 'rejected') {
    if (started.status === 'fulfilled') worker.stop()
    throw prepared.reason
  }
  const { simulator, restored, persistence, detach } = prepared.value
  if (started.status === 'rejected') {
    detach()
    throw started.reason
  }
  return {
    simulator,
    worker,
    restored,
    save: () => void persistence?.save(),
    stop() {
      detach()
      worker.stop()
    },
  }
}

/** `options` without its `undefined` fields: msw merges what it is given over its defaults, `undefined` included. */
function definedOnly<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as T
}

/** Rethrows a failed scenario fetch, leaving the simulator's chunk (loading meanwhile) unobserved without a stray rejection. */
function failed(loading: Promise<unknown>): (error: unknown) => never {
  return (error) => {
    loading.catch(() => undefined)
    throw error
  }
}
