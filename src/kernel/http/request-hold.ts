/**
 * A request's place inside its world: while held, no reset, scenario load or
 * state import can start (they wait for it), so the request sees and writes
 * one world only. `release` lets them run; `reacquire` waits for them to end.
 */
export interface RequestHold {
  release(): void
  reacquire(): Promise<void> | undefined
}

/**
 * Runs `work` with the request's hold released, then takes it back: for
 * waiting on the client (reading its body), which may take as long as the
 * client likes and must not keep a reset waiting. Without a hold, just `work`.
 *
 * @example
 * const text = await outsideHold(hold, () => request.readText(limit))
 */
export async function outsideHold<T>(hold: RequestHold | undefined, work: () => Promise<T>): Promise<T> {
  if (!hold) return work()
  hold.release()
  try {
    return await work()
  } finally {
    const again = hold.reacquire()
    if (again) await again
  }
}
