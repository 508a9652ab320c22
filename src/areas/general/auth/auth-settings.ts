import * as z from 'zod'
import { option } from '../../../kernel/options/option-meta.js'
import { parseDuration } from '../../../kernel/time/sim-clock.js'
import { DEFAULT_TOKEN_TTL, tokenTtl } from '../schemas.js'

const SECRET = 'expected a non-empty secret of at most 4096 characters'

/**
 * Where `--jwt-secret` is read from when the flag is not given: a flag's value
 * shows in `ps` listings, an environment variable's does not.
 *
 * @example
 * // MULTI_AREA_MOCK_JWT_SECRET=team-dev-secret npx multi-area-mock serve
 * process.env[JWT_SECRET_ENV] // 'team-dev-secret'
 */
export const JWT_SECRET_ENV = 'MULTI_AREA_MOCK_JWT_SECRET'

/**
 * Area D's options: the `auth` of its access tokens (D7), from
 * `createSimulator` or the CLI's `--jwt-secret` and `--token-ttl`.
 *
 * @example
 * createSimulator({ auth: { secret: 'dev-secret', expiresIn: 900 } })
 */
export const generalOptions = {
  /**
   * Area D access tokens (D7): the HS256 `secret` (default: derived from the
   * seed, D24) and the lifetime `expiresIn` in seconds (default 3600).
   */
  auth: z
    .object(
      {
        secret: option(z.string(SECRET).min(1, SECRET).max(4096, SECRET).optional(), {
          secret: true,
          cli: { flag: '--jwt-secret <secret>', description: 'HS256 secret of Area D tokens (default: derived from the seed)', env: JWT_SECRET_ENV },
        }),
        expiresIn: option(tokenTtl.optional(), {
          cli: { flag: '--token-ttl <seconds>', description: 'lifetime of Area D tokens: seconds or a duration like 15m (default: 3600)', fromText: ttlSeconds },
        }),
      },
      'expected an object with secret and/or expiresIn',
    )
    .optional(),
}

/** `--token-ttl`: whole seconds (`900`) or a duration (`15m`, `2h`), in seconds. */
function ttlSeconds(text: string): number {
  return /^\d+$/.test(text) ? Number(text) : parseDuration(text) / 1000
}

/**
 * Token settings of one simulator (D7, D24): the `auth` option wins, then the
 * loaded scenario's `general.auth`, then the defaults (secret derived from the
 * seed, 3600 s).
 *
 * @example
 * const settings = new AuthSettings({ expiresIn: 900 })
 * settings.expiresIn // 900
 */
export class AuthSettings {
  readonly secret: string | undefined
  readonly #optionTtl: number | undefined
  #scenarioTtl: number | undefined

  /** `options`: the `auth` option, already checked. */
  constructor(options: { secret?: string | undefined; expiresIn?: number | undefined } | undefined) {
    this.secret = options?.secret
    this.#optionTtl = options?.expiresIn
  }

  /** Token lifetime in seconds. */
  get expiresIn(): number {
    return this.#optionTtl ?? this.#scenarioTtl ?? DEFAULT_TOKEN_TTL
  }

  /** Called when a scenario loads: its `general.auth.expires_in`, if any. */
  applyScenario(expiresIn: number | undefined): void {
    this.#scenarioTtl = expiresIn
  }
}
