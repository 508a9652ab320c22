/**
 * A problem with how the simulator was configured (bad option, clashing routes,
 * invalid scenario). Thrown at start-up, never while answering a request.
 *
 * @example
 * throw new ConfigError('Invalid seed "x": expected an integer.')
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}
