import type { ServerResponse } from 'node:http'

// Node's own timers, taken when the module loads: a test that starts a server and then
// fakes timers (`vi.useFakeTimers()` fakes `setImmediate`) must still get its answers.
const schedule = globalThis.setImmediate
const unschedule = globalThis.clearImmediate

/**
 * Ends the answers made during one turn of the event loop together, once the
 * turn's I/O is done (`setImmediate`), as uWebSockets corks a loop iteration's
 * writes. Each `end` is still one `writev` per connection, but written back
 * to back: a client on the same machine (a browser, a test runner, a load
 * generator) is woken once for the burst instead of once per answer, and
 * waking it was most of what a small answer cost the kernel (profiled under
 * 50 connections on a 2-core VM: 24 µs per write, 13 of them waking the
 * client; about 6 µs once ended together; bench/README.md). An answer waits
 * at most for the rest of its turn; a lone request only for the hop to the
 * turn's end.
 *
 * One batch per server, never module-level. Headers are written before
 * (`writeHead` checks them at once); only the end waits here.
 *
 * @example
 * const batch = new EndBatch()
 * res.writeHead(200, headers)
 * batch.end(res, '{"ok":true}')   // written after this turn's other answers
 */
export class EndBatch {
  /** Responses and their bodies, in the order they were answered (pairs, flat: no object per answer). */
  #pending: Array<ServerResponse | string | Uint8Array | undefined> = []
  #scheduled: NodeJS.Immediate | undefined

  /** Ends `res` with `body` at the end of this turn of the event loop. */
  end(res: ServerResponse, body: string | Uint8Array | undefined): void {
    this.#pending.push(res, body)
    this.#scheduled ??= schedule(this.flush)
  }

  /** Ends every pending answer now (the server calls it before closing its connections, and before judging a client error). */
  readonly flush = (): void => {
    if (this.#scheduled !== undefined) unschedule(this.#scheduled)
    this.#scheduled = undefined
    const pending = this.#pending
    this.#pending = []
    for (let index = 0; index < pending.length; index += 2) {
      const res = pending[index] as ServerResponse
      if (res.destroyed) continue
      try {
        res.end(pending[index + 1])
      } catch {
        // A body of our own never fails to write; were one to, only its connection is lost.
        res.destroy()
      }
    }
  }
}
