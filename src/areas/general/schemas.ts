import * as z from 'zod'
import { OPEN } from '../../kernel/schema/open-object.js'
import { intParam } from '../../kernel/http/query.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { FIELD_LIST_PATTERN, MAX_FIELDS, parseFieldList } from './resources/field-filter.js'
import { FORBIDDEN_KEYS, inspectJsonObject, MAX_DATA_DEPTH, RESERVED_KEYS } from './resources/json-object.js'
import { NOT_BLANK } from '../../kernel/schema/not-blank.js'

/** Token lifetime when neither options nor scenario set one (D7). */
export const DEFAULT_TOKEN_TTL = 3600
/** Longest accepted token lifetime: ten years, in seconds. */
export const MAX_TOKEN_TTL = 10 * 365 * 24 * 3600
/** Resources generated when a scenario has no `general` section. */
export const DEFAULT_RESOURCE_COUNT = 40
/** Most recipients one notification may have (D20 sets no bound; documented). */
export const MAX_RECIPIENTS = 1000
/** Longest notification message, in characters (documented). */
export const MAX_MESSAGE_LENGTH = 2000

/** Token lifetime in whole seconds. */
export const tokenTtl = z.int('must be a whole number of seconds').min(1, 'must be at least 1 second').max(MAX_TOKEN_TTL, `must be at most ${MAX_TOKEN_TTL} seconds (10 years)`)

/** A type error message that says "is required" when the field is missing (D11). */
function expected(what: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`) }
}

/** `POST /auth/login` body (D6). Bounded so a huge password cannot make hashing expensive. */
export const loginBody = z.object({
  username: z.string(expected('a string')).min(1, 'must be a non-empty string').max(256),
  password: z.string(expected('a string')).min(1, 'must be a non-empty string').max(1024),
})

/** `POST /auth/login` answer: the spec's `token` and `expires_in`, plus OAuth's `token_type`. */
export const loginResult = z
  .object({
    token: z.string().describe('An HS256 JWT carrying `sub` (the user id), `username`, `iat`, `exp` and `jti` (D7).'),
    token_type: z.literal('Bearer'),
    expires_in: z.int().min(1).describe('Lifetime of the token in seconds, on the simulator clock.'),
  })
  .meta({ id: 'LoginResult', description: 'An access token to send as `Authorization: Bearer <token>` (D7).' })

/** The claims of an access token (D7). */
export const accessTokenClaims = z.object({
  iss: z.string(),
  sub: z.string(),
  username: z.string(),
  iat: z.int(),
  exp: z.int(),
  jti: z.string(),
})
export type AccessTokenClaims = z.infer<typeof accessTokenClaims>

/** A resource id (D19): a positive integer, given as text in the path. */
export const resourceId = intParam(1)

/** `{resource_id}` of `GET /data/{resource_id}`. */
export const dataParams = z.object({ resource_id: resourceId.describe('Id of a resource: a positive integer.') })

/** `{id}` of `PUT /resources/{id}`. */
export const resourceParams = z.object({ id: resourceId.describe('Id of a resource: a positive integer.') })

/** Extra field of Area D's resource 404: the id looked for. */
export const unknownResourceExtra = z.object({ resource_id: z.int() })

/** `GET /data/{resource_id}` query: `fields=a,b` (D19). */
export const dataQuery = z.object({
  fields: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseFieldList(text)
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed })
        return z.NEVER
      }
      return parsed
    })
    // The parsed list has no JSON Schema; the document shows the text a client sends,
    // with the pattern `parseFieldList` keeps to.
    .meta({
      type: 'string',
      pattern: FIELD_LIST_PATTERN.source,
      description: `Comma-separated field names to keep, e.g. \`title,owner\`; \`id\` is always kept, unknown names are ignored; no empty names, at most ${MAX_FIELDS}.`,
    })
    .optional(),
})

/**
 * A resource's data: a JSON object, checked on the raw input (before anything
 * copies it) so `__proto__`, `constructor` and `prototype` keys are refused at
 * any depth and never reach a prototype (D19). `z.unknown()` passes the input
 * through untouched, which a `z.record()` would not (it drops `__proto__`).
 * With `reserved`, `id` and the timestamps may not sit inside (scenarios, state).
 */
function jsonObject(reserved: boolean) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (value === undefined) return void ctx.addIssue({ code: 'custom', message: 'is required' })
      const problems = inspectJsonObject(value)
      for (const problem of problems) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message })
      if (!reserved || problems.length > 0) return
      for (const key of RESERVED_KEYS) {
        if (Object.hasOwn(value as object, key)) ctx.addIssue({ code: 'custom', path: [key], message: 'is kept beside "data", not inside it' })
      }
    })
    .meta({
      type: 'object',
      // Any key the rules allow, with any JSON: said explicitly, or generated clients type the object as empty (`Record<string, never>`).
      additionalProperties: true,
      // Keys at the first level; deeper ones are said in the description (JSON Schema would need a recursive schema per level).
      propertyNames: { not: { enum: reserved ? [...FORBIDDEN_KEYS, ...RESERVED_KEYS] : [...FORBIDDEN_KEYS] } },
      description: dataRules(reserved),
    }) as unknown as z.ZodType<Record<string, unknown>, Record<string, unknown>>
}

/** What resource data may hold, for the document's descriptions. */
function dataRules(reserved: boolean): string {
  const keys = (list: readonly string[]) => list.map((key) => `\`${key}\``).join(', ')
  return `A JSON object: no key ${keys(FORBIDDEN_KEYS)} at any depth${reserved ? `, no ${keys(RESERVED_KEYS)} at the first level` : ''}, at most ${MAX_DATA_DEPTH} levels deep.`
}

/** Data of `PUT /resources/{id}`. */
export const resourceData = jsonObject(false)
/** Data as scenarios and state give it: the resource's own fields only; `id` and timestamps sit beside it. */
const storedData = jsonObject(true)

/** `PUT /resources/{id}` body (D19): `data` replaces the resource's data. */
export const updateResourceBody = z.object({
  data: resourceData.describe(`The new data, replacing the old; \`id\` may repeat the resource's id, \`created_at\` and \`updated_at\` are ignored. ${dataRules(false)}`),
})

/** A resource as the API shows it (D19): `id`, its own fields, then the simulator's timestamps. */
export const resourceView = z
  .looseObject({ id: z.int().min(1), created_at: isoTimestamp, updated_at: isoTimestamp })
  .meta({ id: 'Resource', description: 'A resource: `id`, its own fields (any JSON), `created_at` and `updated_at` (D19).', ...OPEN })

/** `200` of `GET /data/{resource_id}`: the resource, or with `fields` only `id` and the fields named. */
export const dataView = z
  .looseObject({ id: z.int().min(1), created_at: isoTimestamp.optional(), updated_at: isoTimestamp.optional() })
  .meta({ id: 'DataResource', description: 'A resource, or only `id` and the fields `fields` names (D19).', ...OPEN })

/** `200` of `PUT /resources/{id}` (D19). */
export const resourceUpdateResult = z.object({ message: z.string(), resource: resourceView }).meta({ id: 'ResourceUpdate', description: 'The resource after the update (D19).' })

/** A stored resource: `data` is what `PUT` replaces; `id` and timestamps are the simulator's. */
export const resourceRecord = z.object({
  id: z.int().min(1),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
})
export type ResourceRecord = z.infer<typeof resourceRecord>

export const priority = z.enum(['low', 'normal', 'high'], 'must be one of "low", "normal", "high"')
export type Priority = z.infer<typeof priority>

const recipientIds = z
  .array(z.int('must be an integer').min(1, 'must be a positive integer'), expected('an array of positive integers'))
  .min(1, 'must contain at least one recipient')
  .max(MAX_RECIPIENTS, `must contain at most ${MAX_RECIPIENTS} recipients`)

const message = z
  .string(expected('a string'))
  .max(MAX_MESSAGE_LENGTH, `must be at most ${MAX_MESSAGE_LENGTH} characters`)
  .regex(NOT_BLANK, 'must be a non-empty string')
  .describe(`The text: not empty or only white space, at most ${MAX_MESSAGE_LENGTH} characters.`)

/** `POST /notifications/send` body (D20). */
export const sendNotificationBody = z.object({
  recipient_ids: recipientIds,
  message,
  priority: priority.default('normal'),
})

/** `202` of `POST /notifications/send` (D20). */
export const queuedNotification = z
  .object({
    id: z.string(),
    status: z.literal('queued'),
    recipients: z.array(z.int().min(1)).describe('`recipient_ids` without repeats, in order of first mention.'),
    priority,
  })
  .meta({ id: 'QueuedNotification', description: 'A notification queued for delivery; the control API shows when it is delivered (D20).' })

/** A stored notification: its status is derived from `deliver_at` and the clock (D20). */
export const notificationRecord = z.object({
  id: z.string(),
  recipients: z.array(z.int()),
  message: z.string(),
  priority,
  queued_at: z.string(),
  deliver_at: z.string(),
})
export type NotificationRecord = z.infer<typeof notificationRecord>

/** A notification as the state API shows it; `status` is recomputed from the clock on import. */
export const notificationState = z.strictObject({
  id: z.string().min(1),
  recipients: recipientIds,
  message,
  priority: priority.default('normal'),
  status: z.enum(['queued', 'delivered']).optional().describe('Derived from delivered_at and the clock; ignored on import.'),
  queued_at: isoTimestamp,
  delivered_at: isoTimestamp.nullable().optional().describe("When it is (or was) delivered; omitted or null: queued_at plus the priority's delay."),
})
export type NotificationState = z.output<typeof notificationState>

/** A notification in a scenario: as the state shows it, but `queued_at` may be left to the clock (a recorded one's was never shown). */
export const scenarioNotification = notificationState.extend({
  queued_at: isoTimestamp.optional().describe('Defaults to the simulator clock when the scenario is loaded.'),
})

/** A resource as the state API shows it. */
export const resourceState = z.strictObject({
  id: z.int().min(1),
  data: storedData,
  created_at: isoTimestamp,
  updated_at: isoTimestamp.optional(),
})
export type ResourceState = z.output<typeof resourceState>

/** A resource spelled out in a scenario file. */
export const scenarioResource = z.strictObject({
  id: z.int().min(1).optional().describe('Fixed id; otherwise the next free one.'),
  data: storedData.describe(`The resource's fields, e.g. {"title": "Q3 report", "tags": ["finance"]}. ${dataRules(true)}`),
  created_at: isoTimestamp.optional().describe('Defaults to the simulator clock.'),
  updated_at: isoTimestamp.optional().describe('Defaults to created_at.'),
})

/** The `general` section of a scenario (Area D). */
export const generalScenario = z.strictObject({
  generate: z.int().min(0).max(10_000).default(0).describe('How many realistic resources faker generates, after the listed ones.'),
  resources: z.array(scenarioResource).default([]).superRefine(uniqueIds).describe('Resources listed one by one; each fixed `id` once.'),
  notifications: z.array(scenarioNotification).default([]).superRefine(uniqueIds).describe('Notifications already sent; each `id` once.'),
  auth: z.strictObject({ expires_in: tokenTtl.optional().describe('Token lifetime in seconds; the simulator option auth.expiresIn wins.') }).optional(),
})
export type GeneralScenario = z.output<typeof generalScenario>

/** The `general` section of the world state. */
export const generalState = z.strictObject({
  resources: z.array(resourceState).superRefine(uniqueIds).describe('Each resource `id` once.'),
  notifications: z.array(notificationState).default([]).superRefine(uniqueIds).describe('Each notification `id` once.'),
})
export type GeneralState = z.output<typeof generalState>

function uniqueIds(items: ReadonlyArray<{ id?: string | number | undefined }>, ctx: z.RefinementCtx): void {
  const seen = new Set<string | number>()
  items.forEach((item, index) => {
    if (item.id === undefined) return
    if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id ${JSON.stringify(item.id)}` })
    seen.add(item.id)
  })
}
