/**
 * The source clock of a simulator family: wall time, except while a command
 * is applied, when it reads the instant the command was accepted. Every clock
 * of the family (its worlds', those a command creates) reads it, so applying a
 * command gives the same times on every replica and in every replay, however
 * long after it was accepted.
 *
 * @example
 * const source = new PinnedSource()
 * const clock = toSimClock('system', source.now)
 * await source.during(command.at, () => apply(command))
 */
export class PinnedSource {
  #pinned: number | undefined
  readonly #wall: () => number

  constructor(wall: () => number = Date.now) {
    this.#wall = wall
  }

  /** The instant: the pinned one while a command is applied, else wall time. */
  readonly now = (): number => this.#pinned ?? this.#wall()

  /** Runs `apply` with the source reading `at` until it settles; commands are applied one at a time. */
  async during<T>(at: number, apply: () => Promise<T>): Promise<T> {
    this.#pinned = at
    try {
      return await apply()
    } finally {
      this.#pinned = undefined
    }
  }
}
