/**
 * The defaults of the browser entry's own options, apart from their schema
 * (`browser-options.ts`): msw's worker starts with them before the options are
 * checked, while the simulator (and the schema with it) is still loading.
 */
export const BROWSER_DEFAULTS = {
  persist: false,
  storageKey: 'multi-area-mock',
  quiet: false,
  onUnhandledRequest: 'bypass',
} as const
