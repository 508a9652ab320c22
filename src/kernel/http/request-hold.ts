import type { SimRequest } from './sim-request.js'

/** Where a request's hold on its world is kept (a symbol: invisible to JSON and to other code). */
const HOLD = Symbol.for('multi-area-mock.hold')

/**
 * A request's place inside its world: while held, no reset, scenario load or
 * state import can start (they wait for it), so the request sees and writes
 * one world only. `release` lets them run; `reacquire` waits for them to end.
 */
export interface RequestHold {
  release(): void
  reacquire(): Promise<void> | undefined
}

type Carrier = SimRequest & { [HOLD]?: RequestHold }

/**
 * Attaches `hold` to `request`, for `outsideHold` to find. Returns `request`.
 *
 * @example
 * attachHold(request, { release: () => lock.leave(), reacquire: () => lock.enter() })
 */
export function attachHold<R extends SimRequest>(request: R, hold: RequestHold): R {
  ;(request as Carrier)[HOLD] = hold
  return request
}

/**
 * Runs `work` with the request's hold released, then takes it back: for
 * waiting on the client (reading its body), which may take as long as the
 * client likes and must not keep a reset waiting. Without a hold, just `work`.
 *
 * @example
 * const text = await outsideHold(request, () => readText(request))
 */
export async function outsideHold<T>(request: SimRequest, work: () => Promise<T>): Promise<T> {
  const hold = (request as Carrier)[HOLD]
  if (!hold) return work()
  hold.release()
  try {
    return await work()
  } finally {
    const again = hold.reacquire()
    if (again) await again
  }
}
