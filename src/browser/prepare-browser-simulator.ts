import { parseOptions } from '../kernel/options/parse-options.js'
import { builtinScenarios } from '../simulator/state/builtin-scenarios.js'
import { checkedSimulator } from '../simulator/create-simulator.js'
import type { Simulator } from '../simulator/simulator.js'
import { type BrowserSimulatorOptions, browserOptionsSchema } from './browser-options.js'
import type { LoadedRouter } from './deferred-handler.js'
import { persistIdentity } from './persist-identity.js'
import type { FetchedScenario } from './scenario-fetch.js'
import { checkFetchedScenario, resolveScenario } from './scenario-source.js'
import { type StorageLike, WorldPersistence } from './world-persistence.js'

/** A page's simulator, seeded or restored, saving after every change when asked to. */
export interface PreparedSimulator extends LoadedRouter<object> {
  simulator: Simulator
  restored: boolean
  persistence: WorldPersistence | undefined
  /** Stops saving after changes. */
  detach: () => void
}

/**
 * Everything of `startBrowserSimulator` but msw's worker: the options
 * checked, the scenario chosen (`fetched`: a scenario file the page fetched
 * before the worker started), the simulator created and seeded, and the saved
 * world restored. The browser entry loads this file with a dynamic `import()`,
 * so an app's bundler makes it (the simulator, zod, faker, the areas) a chunk
 * of its own, loaded while msw registers its worker.
 *
 * @example
 * const { simulator, restored } = await prepareBrowserSimulator({ seed: 1, persist: 'session' }, undefined)
 */
export async function prepareBrowserSimulator(options: BrowserSimulatorOptions, fetched: FetchedScenario | undefined): Promise<PreparedSimulator> {
  const checked = parseOptions(browserOptionsSchema, options)
  const { persist, storageKey, scenario } = checked
  const registry = { ...builtinScenarios, ...options.scenarios }
  // Any scenario URL was fetched already, before the worker started: what is left is a name or an object.
  const chosen = fetched ? checkFetchedScenario(fetched) : await resolveScenario(scenario, registry, (input, init) => fetch(input, init), globalThis.location?.href)
  // The browser's own options are not the simulator's: it leaves them aside. Checked once, above.
  const scenarios = { ...options.scenarios, [chosen.name]: chosen.scenario }
  const simulator = checkedSimulator(
    { ...options, scenarios, scenario: chosen.name },
    {
      ...checked,
      scenarios: { ...checked.scenarios, [chosen.name]: chosen.scenario },
      scenario: chosen.name,
    },
  )
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
  const detach = persistence?.attach() ?? (() => undefined)
  return { simulator, router: simulator.router, logger: simulator.handlers[0]!, restored, persistence, detach }
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
