/**
 * Why `sim.db` cannot be read yet: the first scenario is seeded in the
 * background (password hashing is asynchronous WebCrypto in every
 * environment), so `createSimulator()` can stay synchronous. Reading the
 * database before then would show an empty or half-seeded world; this says
 * what to do instead, or why the world never came.
 *
 * @example
 * if (!loaded) throw dbNotReady(loadError)
 */
export function dbNotReady(failure: unknown): Error {
  if (failure === undefined) return new Error('sim.db is not ready yet: await sim.ready first (the scenario is still being seeded).')
  const reason = failure instanceof Error ? failure.message : String(failure)
  return new Error(`sim.db is not available: the scenario failed to load (${reason}).`, { cause: failure })
}
