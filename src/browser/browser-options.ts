import type { StartOptions } from 'msw/browser'
import * as z from 'zod'
import { simulatorOptionsSchema } from '../simulator/options.js'
import type { ScenarioInput } from '../simulator/state/scenario-schema.js'
import { BROWSER_DEFAULTS } from './browser-defaults.js'

/** Where the world is kept between page loads. */
export type PersistMode = 'session' | 'local' | false

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The options of `startBrowserSimulator`: the simulator's (`createSimulator`),
 * with a scenario that may also be a URL, and the browser's own; one schema.
 */
export const browserOptionsSchema = z.object(
  {
    ...simulatorOptionsSchema.shape,
    /**
     * A scenario name (built-in or from `scenarios`), a scenario object, or the
     * URL of a scenario JSON file (a `URL`, or a string with a `/` or ending in
     * `.json`), fetched from the network before the worker starts.
     */
    scenario: z
      .custom<string | URL | ScenarioInput>((value) => typeof value === 'string' || value instanceof URL || isObject(value), 'expected a scenario name, a URL or a scenario object')
      .optional(),
    /**
     * Keep the world across page reloads in `sessionStorage` (this tab) or
     * `localStorage` (every tab of the origin). Default `false`: every load seeds afresh.
     */
    persist: z.union([z.enum(['session', 'local']), z.literal(false)], 'expected "session", "local" or false').default(BROWSER_DEFAULTS.persist),
    /** Storage key of the saved world. Default `'multi-area-mock'`. */
    storageKey: z.string('expected a storage key').min(1, 'expected a storage key').default(BROWSER_DEFAULTS.storageKey),
    /** msw's service worker: its script's `url` (default `'/mockServiceWorker.js'`) and its registration `options`; an `undefined` one is left out. */
    serviceWorker: z.custom<{ url?: string | undefined; options?: RegistrationOptions | undefined }>(isObject, "expected msw's serviceWorker options").optional(),
    /** No console group per answered request, and no msw start message. */
    quiet: z.boolean('expected true or false').default(BROWSER_DEFAULTS.quiet),
    /** What msw does with requests no handler answers. Default `'bypass'`: they go to the network untouched. */
    onUnhandledRequest: z
      .custom<NonNullable<StartOptions['onUnhandledRequest']>>(
        (value) => typeof value === 'string' || typeof value === 'function',
        'expected "bypass", "warn", "error" or a function',
      )
      .default(BROWSER_DEFAULTS.onUnhandledRequest),
  },
  'expected an object of options',
)

export type BrowserSimulatorOptions = z.input<typeof browserOptionsSchema>
