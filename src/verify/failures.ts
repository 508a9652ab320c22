/**
 * A check found the implementation departing from the interface. `expected`
 * and `actual` are short texts for the report.
 *
 * @example
 * throw new CheckFailure('the status filter was ignored', 'every user inactive', 'a user with status "active"')
 */
export class CheckFailure extends Error {
  readonly expected: string | undefined
  readonly actual: string | undefined

  constructor(message: string, expected?: string, actual?: string) {
    super(message)
    this.name = 'CheckFailure'
    this.expected = expected
    this.actual = actual
  }
}

/**
 * A check cannot run here: a fixture is missing, `--read-only` forbids its
 * writes, or what it needs to create could not be created.
 *
 * @example
 * throw new CheckSkipped('no validator address known: pass --fixture validator=0x…')
 */
export class CheckSkipped extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'CheckSkipped'
  }
}

/**
 * The target could not be asked at all: refused, unknown host, no answer in
 * time. Every check that meets one fails with its one-line message.
 */
export class ProbeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProbeError'
  }
}
