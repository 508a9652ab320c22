import { ConfigError } from '../../kernel/errors/config-error.js'
import type { AreaOptions } from '../area.js'
import { DEFAULT_TOKEN_TTL, MAX_TOKEN_TTL, tokenTtl } from './schemas.js'

/**
 * Token settings of one simulator (D7, D24): the `auth` option wins, then the
 * loaded scenario's `general.auth`, then the defaults (secret derived from the
 * seed, 3600 s). Invalid options throw a `ConfigError` at creation.
 *
 * @example
 * const settings = new AuthSettings({ expiresIn: 900 })
 * settings.expiresIn // 900
 */
export class AuthSettings {
  readonly secret: string | undefined
  readonly #optionTtl: number | undefined
  #scenarioTtl: number | undefined

  constructor(options: AreaOptions['auth']) {
    if (options !== undefined && (typeof options !== 'object' || options === null)) throw new ConfigError('Invalid auth option: expected an object.')
    const secret = options?.secret
    if (secret !== undefined && (typeof secret !== 'string' || secret === '' || secret.length > 4096)) {
      throw new ConfigError('Invalid auth.secret: expected a non-empty string of at most 4096 characters.')
    }
    const ttl = options?.expiresIn
    if (ttl !== undefined && !tokenTtl.safeParse(ttl).success) {
      throw new ConfigError(`Invalid auth.expiresIn "${ttl}": expected a whole number of seconds from 1 to ${MAX_TOKEN_TTL}.`)
    }
    this.secret = secret
    this.#optionTtl = ttl
  }

  /** Token lifetime in seconds. */
  get expiresIn(): number {
    return this.#optionTtl ?? this.#scenarioTtl ?? DEFAULT_TOKEN_TTL
  }

  /** Called when a scenario loads: its `general.auth.expires_in`, if any. */
  useScenario(expiresIn: number | undefined): void {
    this.#scenarioTtl = expiresIn
  }
}
