import type * as z from 'zod'
import type { SectionRecording } from '../../world/recording.js'
import { resourceData } from './recorded-resource.js'
import { type generalScenario, scenarioNotification, scenarioResource, tokenTtl } from './schemas.js'

/** Area D's scenario section. */
export const GENERAL_SECTION = 'general'
/** Collections its answers' records are kept in: resources by id, notifications by id. */
export const RECORDED_RESOURCES = 'resources'
export const RECORDED_NOTIFICATIONS = 'notifications'
/** The setting a login answer shows: its `expires_in`. */
export const TOKEN_LIFETIME = 'expires_in'

type GeneralInput = z.input<typeof generalScenario>

/**
 * The `general` section of a recorded scenario: the resources the answers
 * showed (by id, their data keys in the order shown, the timestamps shown),
 * the notifications sent (queued when the scenario loads: no answer shows
 * when), none generated, and the token lifetime a login showed over the start
 * scenario's `auth`. Left out, with why: a record a scenario cannot hold.
 * A resource kept without some keys says which (keys naming secrets).
 *
 * @example
 * recordedGeneral.scenario(recorded, { generate: 40 }).scenario // { generate: 0, resources: [{ id: 3, data: { title: … }, created_at, updated_at }], notifications: [] }
 */
export const recordedGeneral: SectionRecording<GeneralInput> = {
  key: GENERAL_SECTION,
  scenario({ collections, settings }, base) {
    const left: string[] = []
    const resources: NonNullable<GeneralInput['resources']> = []
    const byId = [...(collections.get(RECORDED_RESOURCES) ?? new Map())].sort(([a], [b]) => Number(a) - Number(b))
    for (const [id, fields] of byId) {
      const { data, withheld } = resourceData(fields)
      const timestamps = { created_at: fields.created_at, updated_at: fields.updated_at }
      const resource = { id: Number(id), data, ...Object.fromEntries(Object.entries(timestamps).filter(([, value]) => value !== undefined)) }
      const checked = scenarioResource.safeParse(resource)
      if (!checked.success) {
        left.push(`${RECORDED_RESOURCES}/${id}: a scenario cannot hold it (${describe(checked.error)})`)
        continue
      }
      resources.push(resource as (typeof resources)[number])
      if (withheld.length > 0) left.push(`${RECORDED_RESOURCES}/${id}'s ${withheld.join(', ')} (keys that name secrets are never recorded; the resource is kept without them)`)
    }

    const notifications: NonNullable<GeneralInput['notifications']> = []
    for (const [id, fields] of collections.get(RECORDED_NOTIFICATIONS) ?? new Map()) {
      const notification = { id, recipients: fields.recipients, message: fields.message, priority: fields.priority }
      const checked = scenarioNotification.safeParse(notification)
      if (checked.success) notifications.push(notification as (typeof notifications)[number])
      else left.push(`${RECORDED_NOTIFICATIONS}/${id}: a scenario cannot hold it (${describe(checked.error)})`)
    }

    const auth = { ...(base as GeneralInput | undefined)?.auth }
    if (settings.has(TOKEN_LIFETIME)) {
      const lifetime = settings.get(TOKEN_LIFETIME)
      if (tokenTtl.safeParse(lifetime).success) auth.expires_in = lifetime as number
      else left.push(`auth/${TOKEN_LIFETIME}: ${String(lifetime)} s is not a lifetime a scenario holds`)
    }
    return { scenario: { generate: 0, resources, notifications, ...(Object.keys(auth).length > 0 ? { auth } : {}) }, left }
  },
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue === undefined ? 'invalid' : `${issue.path.join('.')} ${issue.message}`.trim()
}
