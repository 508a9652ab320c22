import { type SetupWorker, setupWorker } from 'msw/browser'
import { builtinScenarios } from '../simulator/builtin-scenarios.js'
import { createSimulator } from '../simulator/create-simulator.js'
import { parseOptions } from '../kernel/options/parse-options.js'
import type { Simulator } from '../simulator/simulator.js'
import { type BrowserSimulatorOptions, browserOptionsSchema } from './browser-options.js'
import { persistIdentity } from './persist-identity.js'
import { resolveScenario } from './scenario-source.js'
import { type StorageLike, WorldPersistence } from './world-persistence.js'

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
 * @example
 * import { startBrowserSimulator } from 'multi-area-mock/browser'
 * await startBrowserSimulator({ seed: 1, scenario: 'default', persist: 'session' })
 */
export async function startBrowserSimulator(options: BrowserSimulatorOptions = {}): Promise<BrowserSimulator> {
  const { persist, storageKey, serviceWorker, quiet, onUnhandledRequest, scenario } = parseOptions(browserOptionsSchema, options)
  // Before the worker starts, so a scenario URL is fetched from the network.
  const registry = { ...builtinScenarios, ...options.scenarios }
  const chosen = await resolveScenario(scenario, registry, (input, init) => fetch(input, init), globalThis.location?.href)
  // The browser's own options are not the simulator's: it leaves them aside.
  const simulator = createSimulator({ ...options, scenarios: { ...options.scenarios, [chosen.name]: chosen.scenario }, scenario: chosen.name })
  await simulator.ready

  let persistence: WorldPersistence | undefined
  let restored = false
  const storage = persist ? openStorage(persist) : undefined
  if (storage) {
    persistence = new WorldPersistence(simulator, {
      storage: storage.storage,
      storageName: storage.name,
      key: storageKey,
      identity: persistIdentity(options, chosen.name, chosen.scenario),
    })
    restored = (await persistence.restore()) === 'restored'
    // A fresh start overwrites what another seed or scenario left behind.
    if (!restored) persistence.save()
  }
  const detach = persistence?.attach()

  const worker = setupWorker(...simulator.handlers)
  try {
    await worker.start({ quiet, onUnhandledRequest, ...(serviceWorker ? { serviceWorker } : {}) })
  } catch (error) {
    detach?.()
    throw error
  }
  return {
    simulator,
    worker,
    restored,
    save: () => void persistence?.save(),
    stop() {
      detach?.()
      worker.stop()
    },
  }
}

/** The chosen Web Storage, or `undefined` (with a warning) where the browser refuses it. */
function openStorage(mode: 'session' | 'local'): { storage: StorageLike; name: string } | undefined {
  const name = mode === 'session' ? 'sessionStorage' : 'localStorage'
  try {
    // Reading the property itself throws where storage is blocked (e.g. third-party iframes).
    const storage = mode === 'session' ? globalThis.sessionStorage : globalThis.localStorage
    if (storage) return { storage, name }
  } catch (error) {
    console.warn(`[multi-area-mock] ${name} is not available (${error instanceof Error ? error.message : String(error)}); the world will not survive a reload.`)
    return undefined
  }
  console.warn(`[multi-area-mock] ${name} is not available here; the world will not survive a reload.`)
  return undefined
}
