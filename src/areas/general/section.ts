import type { AccountStore } from '../../world/accounts/account-store.js'
import { fillCollection } from '../../kernel/data/fill-collection.js'
import { sameJson } from '../../kernel/data/same-json.js'
import type { StoreOf } from '../../world/section.js'
import type { World } from '../../world/world.js'
import type { AuthSettings } from './auth/auth-settings.js'
import type { GeneralCollections } from './collections.js'
import { fromNotificationState, toNotificationState } from './notifications.js'
import { generateResources } from './resources/resource-generator.js'
import { DEFAULT_RESOURCE_COUNT, type GeneralScenario, generalScenario, type GeneralState, generalState, type ResourceRecord } from './schemas.js'

/** The `general` section with no scenario section at all: a realistic set of resources. */
const DEFAULT_SECTION: GeneralScenario = { generate: DEFAULT_RESOURCE_COUNT, resources: [], notifications: [] }

/** Area D's place in scenarios and state: `general`. */
export const generalSectionSchemas = {
  key: 'general',
  scenarioSchema: generalScenario.optional().describe('Area D: resources, notifications, token lifetime. Omitted: 40 generated resources.'),
  stateSchema: generalState.default({ resources: [], notifications: [] }),
} as const

/**
 * The `general` section of scenarios and state (Area D): resources listed
 * and/or generated, notifications sent, and the scenario's token lifetime.
 * Generated resources take owners from the shared accounts, which load first.
 *
 * @example
 * const section = generalSection(world, accounts, createGeneralCollections(), new AuthSettings(undefined))
 * await section.load({ generate: 5, resources: [], notifications: [] })
 */
export function generalSection(world: World, accounts: AccountStore, collections: GeneralCollections, settings: AuthSettings): StoreOf<typeof generalSectionSchemas> {
  const fill = async (resources: readonly ResourceRecord[], state: Pick<GeneralState, 'notifications'>, options?: { trusted?: boolean }) => {
    collections.resources.clear()
    collections.notifications.clear()
    await fillCollection(collections.resources, resources, options)
    await fillCollection(collections.notifications, state.notifications.map(fromNotificationState), options)
  }
  return {
    configure(scenario) {
      settings.applyScenario(scenario?.auth?.expires_in)
    },

    async load(scenario) {
      const section = scenario ?? DEFAULT_SECTION
      settings.applyScenario(section.auth?.expires_in)
      const listed: ResourceRecord[] = []
      const taken = new Set(section.resources.flatMap((resource) => (resource.id === undefined ? [] : [resource.id])))
      let nextId = 1
      for (const resource of section.resources) {
        let id = resource.id
        if (id === undefined) {
          while (taken.has(nextId)) nextId++
          taken.add((id = nextId))
        }
        listed.push(toRecord(id, resource, world.now()))
      }
      const firstGenerated = Math.max(0, ...taken) + 1
      const owners = accounts.sorted().map((account) => account.username)
      // A notification without `queued_at` (a recorded one) was queued when the scenario loads.
      const notifications = section.notifications.map((item) => ({ ...item, queued_at: item.queued_at ?? world.now() }))
      await fill([...listed, ...generateResources(world, owners, section.generate, firstGenerated)], { notifications })
    },

    export() {
      const now = world.clock.now()
      return {
        resources: collections.resources
          .all()
          .map((record) => ({ id: record.id, data: structuredClone(record.data), created_at: record.created_at, updated_at: record.updated_at })),
        notifications: collections.notifications.all().map((record) => toNotificationState(record, now)),
      }
    },

    holds(state) {
      const resources = collections.resources.all()
      if (resources.length !== state.resources.length) return false
      for (let i = 0; i < resources.length; i++) {
        const record = resources[i]!
        const kept = state.resources[i]!
        if (record.id !== kept.id || record.created_at !== kept.created_at || record.updated_at !== kept.updated_at || !sameJson(record.data, kept.data)) return false
      }
      const now = world.clock.now()
      return sameJson(
        collections.notifications.all().map((record) => toNotificationState(record, now)),
        state.notifications,
      )
    },

    import(state, options) {
      // Its own export is stored as it is (@msw/data copies each record, `data` included).
      const resources = options?.trusted ? (state.resources as ResourceRecord[]) : state.resources.map((resource) => toRecord(resource.id, resource, resource.created_at))
      return fill(resources, state, options)
    },
  }
}

/** A stored resource from a scenario or state entry: timestamps normalised, data copied. */
function toRecord(id: number, resource: { data: Record<string, unknown>; created_at?: string | undefined; updated_at?: string | undefined }, now: string): ResourceRecord {
  const createdAt = new Date(resource.created_at ?? now).toISOString()
  return { id, data: structuredClone(resource.data), created_at: createdAt, updated_at: new Date(resource.updated_at ?? createdAt).toISOString() }
}
