import { createHmac, randomBytes } from 'node:crypto'
import * as z from 'zod'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { PACKAGE_VERSION } from '../../package-version.js'

/**
 * The key of every store's fingerprint, with the store's salt: fixed, so any
 * replica can compute it; a key of this package's own, so the fingerprint is
 * no hash of the options (the JWT secret among them) that anything else makes.
 */
const FINGERPRINT_KEY = 'multi-area-mock/replica-fingerprint/2'

/** What the first replica of a store writes once (`mam:{<name>}:meta`), and every later one must match. */
const storeMetaSchema = z.strictObject({
  format: z.literal(2),
  /** The package version of the replica that claimed the store: replicas of other versions may build other worlds. */
  version: z.string().max(100),
  /** Drawn by that replica (hex): salts the fingerprint, so the same options give another one in each store. */
  salt: z.string().regex(/^[0-9a-f]{32,128}$/),
  /** `worldFingerprint` of its options, version and salt. */
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  /** The instant it seeded the starting scenario; the others seed as at the same instant. */
  startedAt: z.number(),
})
type StoreMeta = z.infer<typeof storeMetaSchema>

/** What `claimStore` needs of the store: set a key unless it is set, resolving with the value that won. */
export interface MetaClaim {
  claim(key: 'meta', value: string): Promise<string>
}

/**
 * Claims `store` for these options, or joins the replicas that claimed it:
 * the first replica writes its version, a random salt, the fingerprint of its
 * options and its start instant; a later one joins only with the same
 * version and options. Resolves with the first replica's start instant;
 * another version, other options, or a claim that multi-area-mock did not
 * write is a one-line `ConfigError`.
 *
 * @example
 * const { startedAt } = await claimStore(log, 'redis://127.0.0.1:6379', (salt) => worldFingerprint(options, serverOnly, salt))
 */
export async function claimStore(log: MetaClaim, store: string, fingerprint: (salt: string) => string, now = Date.now()): Promise<{ startedAt: number }> {
  const salt = randomBytes(16).toString('hex')
  const mine: StoreMeta = { format: 2, version: PACKAGE_VERSION, salt, fingerprint: fingerprint(salt), startedAt: now }
  const text = await log.claim('meta', JSON.stringify(mine))
  const meta = readMeta(text, store)
  if (meta.version !== PACKAGE_VERSION) throw otherVersion(store, `multi-area-mock ${meta.version}`)
  if (meta.fingerprint !== (meta.salt === salt ? mine.fingerprint : fingerprint(meta.salt))) {
    throw new ConfigError(
      `The store ${store} holds worlds started with other options (seed, scenario, areas, base URLs, clock, limits, faults or the JWT secret); start every replica with the same ones, or give this one another store.`,
    )
  }
  return { startedAt: meta.startedAt }
}

function readMeta(text: string, store: string): StoreMeta {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  const parsed = storeMetaSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const claimed = value as { format?: unknown; version?: unknown } | undefined
  // A replica of 0.2.0 and before kept `{ format: 1, fingerprint, startedAt }`, without its version.
  if (claimed?.format === 1) throw otherVersion(store, 'an earlier version of multi-area-mock')
  // A later version may keep more: its version is enough to refuse it.
  if (typeof claimed?.version === 'string' && claimed.version !== PACKAGE_VERSION) throw otherVersion(store, `multi-area-mock ${claimed.version.slice(0, 100)}`)
  throw new ConfigError(`The store ${store} is claimed by a key (meta) that is not one multi-area-mock wrote; give the replicas another store, or delete the store's keys.`)
}

function otherVersion(store: string, which: string): ConfigError {
  return new ConfigError(
    `The store ${store} holds worlds of ${which}, and this replica is ${PACKAGE_VERSION}: run the same version on every replica, or give this one another store.`,
  )
}

/**
 * The fingerprint of the options that shape worlds and answers: what every
 * replica of a store must share. An HMAC-SHA256 keyed with this package's key
 * and the store's salt, of the package version and the options; server-only
 * settings (port, host, logging, tokens of the control API, CORS) are left
 * out. Secrets only ever go in as part of it (docs/replicas.md says what it
 * guards and what not).
 *
 * @example
 * worldFingerprint({ seed: 7, port: 4000 }, new Set(['port']), salt) === worldFingerprint({ seed: 7, port: 4001 }, new Set(['port']), salt)
 */
export function worldFingerprint(options: Record<string, unknown>, serverOnly: ReadonlySet<string>, salt: string, version = PACKAGE_VERSION): string {
  const shaping = Object.fromEntries(Object.entries(options).filter(([key, value]) => !serverOnly.has(key) && typeof value !== 'function' && value !== undefined))
  return createHmac('sha256', `${FINGERPRINT_KEY}:${salt}`)
    .update(stableJson({ version, options: shaping }))
    .digest('hex')
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined && typeof item !== 'function')
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
