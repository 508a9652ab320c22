import type * as z from 'zod'
import { type AreaRecording, byStatus, type Observation } from '../../world/recording.js'
import { parseFieldList } from './resources/field-filter.js'
import { GENERAL_SECTION, recordedGeneral, RECORDED_NOTIFICATIONS, RECORDED_RESOURCES, TOKEN_LIFETIME } from './recorded-general.js'
import { resourceFields } from './recorded-resource.js'
import type { loginResult, queuedNotification, resourceUpdateResult } from './schemas.js'

const remove = (id: string): Observation => ({ kind: 'remove', section: GENERAL_SECTION, collection: RECORDED_RESOURCES, id })

/**
 * A whole resource as an answer shows it: it replaces what was seen before
 * (keys it no longer has included), so it is forgotten first.
 */
function wholeResource(view: Readonly<Record<string, unknown>>): Observation[] {
  const id = String(view.id)
  return [remove(id), { kind: 'upsert', section: GENERAL_SECTION, collection: RECORDED_RESOURCES, id, fields: resourceFields(view) }]
}

/**
 * Area D's answers, read into the `general` section: resources, sent
 * notifications, and the token lifetime. Nothing of the shared accounts.
 *
 * - `POST /auth/login` 200: `expires_in`, the scenario's `auth.expires_in`.
 *   The token itself is never read, let alone kept.
 * - `GET /data/{id}` 200: the resource, whole, or with `fields=` the keys
 *   shown (and those asked for but absent, as gone); 404: gone.
 * - `PUT /resources/{id}` 200: the resource after the update, whole; 404: gone.
 * - `POST /notifications/send` 202: the notification, its message from the request.
 *
 * Data keys that name a secret (`api_key`, `password`...) are never kept, at any depth.
 *
 * @example
 * generalRecording.observe.getData!(exchange) // [{ kind: 'remove', … }, { kind: 'upsert', collection: 'resources', id: '3', fields: { 'data.title': …, … } }]
 */
export const generalRecording: AreaRecording = {
  sections: [GENERAL_SECTION],
  observe: {
    login: byStatus({
      200: ({ response }) => [{ kind: 'setting', section: GENERAL_SECTION, key: TOKEN_LIFETIME, value: (response as z.infer<typeof loginResult>).expires_in }],
    }),
    getData: byStatus({
      200: ({ response, query }) => {
        const view = response as Record<string, unknown>
        const asked = query.get('fields')
        if (asked === null) return wholeResource(view)
        const names = parseFieldList(asked)
        if (typeof names === 'string') return { unmapped: `its fields list ${names}` }
        return [{ kind: 'upsert', section: GENERAL_SECTION, collection: RECORDED_RESOURCES, id: String(view.id), fields: resourceFields(view, names) }]
      },
      404: ({ params }) => [remove(String(Number(params.resource_id)))],
    }),
    updateResource: byStatus({
      200: ({ response }) => wholeResource((response as z.infer<typeof resourceUpdateResult>).resource),
      404: ({ params }) => [remove(String(Number(params.id)))],
    }),
    sendNotification: byStatus({
      202: ({ response, request }) => {
        const queued = response as z.infer<typeof queuedNotification>
        const message = (request as { message?: unknown } | undefined)?.message
        const fields = { recipients: queued.recipients, priority: queued.priority, ...(typeof message === 'string' ? { message } : {}) }
        return [{ kind: 'upsert', section: GENERAL_SECTION, collection: RECORDED_NOTIFICATIONS, id: queued.id, fields }]
      },
    }),
  },
  section: recordedGeneral,
}
