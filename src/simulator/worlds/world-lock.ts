import type { RequestHold } from '../../kernel/http/request-hold.js'

/**
 * Keeps world operations (reset, scenario load, state import) and requests
 * apart: an operation waits for the operations queued before it and for the
 * requests inside the world to leave, then runs alone; requests arriving
 * meanwhile wait for it. So every answer comes from the world before an
 * operation or the world after it, never from a half-loaded one, and no
 * request writes into a world being loaded. Entering costs nothing while no
 * operation is queued (no promise, no await).
 *
 * @example
 * const lock = new WorldLock()
 * await lock.exclusive(() => loadScenario())
 * const waiting = lock.enter(); if (waiting) await waiting
 * try { answer() } finally { lock.leave() }
 */
export class WorldLock {
  /** What an area request lets go of while it waits for its client (`AnswerOptions.hold`, `outsideHold`). */
  readonly hold: RequestHold = { release: () => this.leave(), reacquire: () => this.enter() }
  #queue: Promise<void> = Promise.resolve()
  /** Operations queued or running. */
  #pending = 0
  /** Requests inside the world. */
  #inside = 0
  #drained: (() => void) | undefined

  /** `true` while an operation is queued or running. */
  get busy(): boolean {
    return this.#pending > 0
  }

  /** Settles when no operation is queued or running (`undefined` when none is). */
  idle(): Promise<void> | undefined {
    return this.#pending > 0 ? this.#waitIdle() : undefined
  }

  /** Runs `operation` alone: after earlier ones, once the requests inside have left. */
  exclusive(operation: () => Promise<void>): Promise<void> {
    this.#pending++
    const run = this.#queue
      .then(() => this.#emptied())
      .then(operation)
      .finally(() => {
        this.#pending--
      })
    this.#queue = run.catch(() => undefined)
    return run
  }

  /** Enters the world as a request; a promise when it must wait for operations first. */
  enter(): Promise<void> | undefined {
    if (this.#pending === 0) {
      this.#inside++
      return undefined
    }
    return this.#waitIdle().then(() => this.enter())
  }

  leave(): void {
    this.#inside--
    if (this.#inside === 0 && this.#drained) {
      const resolve = this.#drained
      this.#drained = undefined
      resolve()
    }
  }

  async #waitIdle(): Promise<void> {
    while (this.#pending > 0) await this.#queue
  }

  #emptied(): Promise<void> | undefined {
    if (this.#inside === 0) return undefined
    return new Promise((resolve) => (this.#drained = resolve))
  }
}
