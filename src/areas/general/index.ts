import { defineArea } from '../area.js'
import { AuthSettings, generalOptions } from './auth/auth-settings.js'
import { createGeneralCollections } from './collections.js'
import { Authenticator, STAND_IN_PASSWORD } from './auth/login.js'
import { Outbox } from './notifications.js'
import { generalRecording } from './recording.js'
import { ResourceStore } from './resources/resource-store.js'
import { generalRoutes } from './routes.js'
import { generalSection, generalSectionSchemas } from './section.js'
import { AccessTokens } from './auth/tokens.js'

/**
 * Area D, the general-purpose interface (login with real JWTs, data and
 * resources, notifications), mounted at `/general` by default (D1). Its
 * `auth` options are validated here, when the simulator is created.
 *
 * @example
 * createSimulator({ auth: { secret: 'dev-secret', expiresIn: 900 } })
 */
export const generalArea = defineArea({
  id: 'general',
  letter: 'D',
  title: 'General: login, data, notifications',
  prefix: '/general',
  options: generalOptions,
  section: generalSectionSchemas,
  recording: generalRecording,
  create({ world, accounts, options }) {
    const settings = new AuthSettings(options.auth)
    const collections = createGeneralCollections()
    // The world's hasher: a seeded user's shared password is derived once, not per login.
    // The stand-in too (a fixed salt, drawing nothing): its key is derived once for all worlds of one seed.
    const authenticator = new Authenticator(accounts, {
      verify: (password, hash) => world.passwords.verify(password, hash),
      dummyHash: () => world.passwords.hash(STAND_IN_PASSWORD, new Uint8Array(16)),
    })
    authenticator.prepare()
    const routes = generalRoutes({
      world,
      accounts,
      authenticator,
      tokens: new AccessTokens(world, settings),
      resources: new ResourceStore(collections),
      outbox: new Outbox(world, collections),
    })
    return {
      routes,
      collections,
      section: generalSection(world, accounts, collections, settings),
    }
  },
})

export { DELIVERY_DELAY_MS } from './notifications.js'
export { derivedSecret, TOKEN_ISSUER } from './auth/tokens.js'
export { type AccessTokenClaims, DEFAULT_TOKEN_TTL, generalScenario, generalState, MAX_TOKEN_TTL } from './schemas.js'
export type { GeneralCollections } from './collections.js'
export type * from './operations.js'
