import { Listeners } from './listeners.js'

/**
 * What changed a simulator's world, as told to `sim.onChange` listeners:
 * a request that may write (any method but GET and HEAD, once it reached a
 * route and was answered), or a whole-world operation.
 */
export type SimulatorChange = { cause: 'request'; method: string; url: string; status: number } | { cause: 'reset' | 'scenario' | 'state' }

export type ChangeListener = (change: SimulatorChange) => void

/** Methods after which the world may have changed; reads never write (areas keep derived values derived). */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** `true` when a request with this method may have written to the world. */
export function mayWrite(method: string): boolean {
  return !READ_METHODS.has(method.toUpperCase())
}

/**
 * The listeners of one simulator. Listeners run synchronously, before the
 * request's response is handed back (so a page that reloads right after a
 * write still finds it saved); one that throws is reported and the others
 * still run, and the request is answered as usual.
 *
 * @example
 * const changes = new ChangeListeners()
 * const off = changes.add((change) => save(change))
 * changes.emit({ cause: 'reset' })
 * off()
 */
export class ChangeListeners extends Listeners<SimulatorChange> {
  constructor() {
    super('an onChange listener')
  }
}
