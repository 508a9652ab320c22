import type { RedisClientType } from '@redis/client'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { describeStoreUrl, parseStoreUrl } from './store-url.js'
import { importRedisClient, type RedisModule } from './redis-client.js'
import { normalizeStreamId, orderOf } from './stream-ids.js'
import { compareIds } from '../../simulator/log/command-store.js'
import { LogTrimmedError, StoreUnavailableError } from './store-errors.js'
import { APPEND_AFTER, APPEND_JOURNAL, CLAIM, LAST_ID, READ, STREAM_FIELD as FIELD, WRITE_SNAPSHOT } from './redis-scripts.js'

// Node's own timers, taken when the module loads: a test that fakes timers must not stall the store.
const schedule = globalThis.setImmediate
const startTimer = globalThis.setTimeout
const stopTimer = globalThis.clearTimeout

const DEFAULT_TIMEOUT_MS = 3_000
const PAGE = 1_000 // entries per round trip of readAfter
const QUEUE_LIMIT = 10_000 // commands awaiting Redis before new ones fail at once: bounds memory while Redis is stopped
const RECONNECT_MAX_MS = 1_000 // reconnection tries back off from 50 ms to this, and never stop
const FAMILY_NAME = /^[\w.-]{1,100}$/

export interface RedisLogOptions {
  /** `redis://[user:password@]host[:port][/db]` (see `parseStoreUrl`). */
  url: string
  /** The family of worlds (a simulator and its isolated worlds): keys are `mam:{<name>}:…`. Default `default`. */
  name?: string
  /** Longest wait for connecting at start and for each round trip after (ms, default 3000). */
  timeoutMs?: number
  /** Called once per change after `connect`: Redis lost (with a one-line reason) or back. */
  onStatus?: (status: { up: boolean; reason?: string }) => void
  /** The longest entry read whole (bytes; default: any): a longer one comes back as `OVERSIZED` and its length, never sent by Redis. */
  maxEntryBytes?: number
}

/**
 * The worlds of one family, shared by replicas through Redis; entries and snapshots are opaque
 * strings. Keys share the hash tag `{<name>}` (one Cluster slot): `mam:{<name>}:log` (the stream
 * of commands, in XADD's order), `:snapshot` (a hash: the data and the last id it covers),
 * `:journal` (the default world's request journal, a capped stream) and
 * `:journal:<world>` (an isolated world's), `:meta` (what the first replica claimed).
 *
 * Never hangs: each round trip rejects within `timeoutMs` with a `StoreUnavailableError` when
 * Redis is down or stopped; commands are not queued while disconnected; the client reconnects
 * in the background, and calls succeed again once Redis is back. "Nothing answered is lost"
 * across a Redis crash needs Redis to promise it: `appendfsync always` (no `WAIT` is sent, so a Redis replica's copy is not enough).
 *
 * @example
 * const log = await RedisLog.connect({ url: 'redis://127.0.0.1:6379', name: 'shop' })
 * const id = await log.append(JSON.stringify(command))
 * for (const { id, entry } of await log.readAfter(applied)) apply(entry)
 * await log.close()
 */
export class RedisLog {
  /** The family's name (its keys' hash tag). */
  readonly name: string
  readonly #redis: RedisModule
  readonly #client: RedisClientType
  readonly #where: string
  readonly #timeoutMs: number
  readonly #onStatus: RedisLogOptions['onStatus'] | undefined
  readonly #maxEntryBytes: string
  readonly #keys: { log: string; snapshot: string; journal: string; meta: string }
  #up = false
  #lost: string | undefined
  #reporting = false
  #tail: Promise<string> | undefined

  private constructor(redis: RedisModule, client: RedisClientType, name: string, where: string, options: RedisLogOptions) {
    this.#redis = redis
    this.#client = client
    this.name = name
    this.#where = where
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.#onStatus = options.onStatus
    // Lua's numbers are doubles: 2^53 is "any".
    this.#maxEntryBytes = String(Math.min(options.maxEntryBytes ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER))
    const key = (part: string) => `mam:{${name}}:${part}`
    this.#keys = { log: key('log'), snapshot: key('snapshot'), journal: key('journal'), meta: key('meta') }
    client.on('error', (error: unknown) => this.#status(false, (this.#lost = reasonOf(error))))
    client.on('ready', () => this.#status(true))
  }

  /** Connects, or refuses with a one-line `ConfigError` (bad URL, no client installed, Redis unreachable within `timeoutMs`, or older than 6.2). */
  static async connect(options: RedisLogOptions): Promise<RedisLog> {
    const url = parseStoreUrl(options.url)
    const name = options.name ?? 'default'
    if (!FAMILY_NAME.test(name)) throw new ConfigError(`The store name "${name}" can only hold letters, digits, "_", "." and "-" (at most 100).`)
    const redis = await importRedisClient()
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const socket = { host: url.host, port: url.port, connectTimeout: timeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, RECONNECT_MAX_MS) }
    const { username, password, database } = url
    // Commands fail at once while disconnected (no offline queue), instead of waiting for Redis to come back.
    const client = redis.createClient({ socket, username, password, database, disableOfflineQueue: true, commandsQueueMaxLength: QUEUE_LIMIT }) as unknown as RedisClientType
    const log = new RedisLog(redis, client, name, describeStoreUrl(url), options)
    // A refusal (a wrong password, say) is final: no need to wait for the timeout.
    let refusal: string | undefined
    const refused = new Promise<never>((_, reject) => client.on('error', (error: unknown) => error instanceof redis.ErrorReply && reject((refusal = reasonOf(error)))))
    const connecting = client.connect()
    for (const pending of [connecting, refused]) pending.catch(() => undefined)
    try {
      await log.#call(() => Promise.race([connecting, refused]))
      const info = String(await log.#call(() => client.sendCommand(['INFO', 'server'])))
      const [, major = 0, minor = 0] = (/redis_version:(\d+)\.(\d+)/.exec(info) ?? []).map(Number)
      if (major * 1_000 + minor < 6_002) throw new ConfigError(`Redis at ${log.#where} is ${major}.${minor}; replicas need Redis 6.2 or newer (XTRIM MINID).`)
    } catch (error) {
      client.destroy()
      if (error instanceof ConfigError) throw error
      if (refusal !== undefined) throw new ConfigError(`Redis at ${log.#where} refused the connection: ${refusal}.`)
      throw new ConfigError(`Cannot reach Redis at ${log.#where} within ${timeoutMs} ms (${log.#lost ?? 'no answer'}).`)
    }
    log.#reporting = true
    return log
  }

  /** Appends an entry to the log (XADD): resolves with its id, once Redis has it. */
  async append(entry: string): Promise<string> {
    return String(await this.#call(() => this.#client.sendCommand(['XADD', this.#keys.log, '*', FIELD, entry])))
  }

  /**
   * Appends `entry` and reads, in the same round trip, the entries after
   * `after` up to it (its own included): a writer that applies them is caught
   * up at once. `entries` is `undefined` when a snapshot trimmed some of them,
   * or more than a page came in (read them with `readAfter`).
   */
  async appendAfter(entry: string, after: string): Promise<{ id: string; entries: Array<{ id: string; entry: string }> | undefined }> {
    const [id, covered, found] = (await this.#call(() =>
      this.#eval(APPEND_AFTER, [this.#keys.log, this.#keys.snapshot], [entry, normalizeStreamId(after), this.#maxEntryBytes]),
    )) as [string, string, Array<[string, string[]]>]
    const entries = found.map(([entryId, fields]) => ({ id: entryId, entry: fieldOf(fields) }))
    const whole = (covered === '' || compareIds(covered, after) <= 0) && entries.at(-1)?.id === id
    return { id, entries: whole ? entries : undefined }
  }

  /**
   * The entries after `id` (`'0-0'` for all), oldest first, at most `count`, 1,000 a round trip (one over `maxEntryBytes` as
   * `OVERSIZED` and its length); `LogTrimmedError` if a snapshot trimmed some.
   */
  async readAfter(id: string, count = Number.POSITIVE_INFINITY): Promise<Array<{ id: string; entry: string }>> {
    const found: Array<{ id: string; entry: string }> = []
    let after = normalizeStreamId(id)
    while (found.length < count) {
      const want = Math.min(PAGE, count - found.length)
      const page = () => this.#eval(READ, [this.#keys.log, this.#keys.snapshot], [after, String(want), this.#maxEntryBytes])
      const [covered, entries] = (await this.#call(page)) as [string, Array<[string, string[]]>]
      if (covered !== '' && compareIds(covered, after) > 0) throw new LogTrimmedError(covered)
      for (const [entryId, fields] of entries) found.push({ id: entryId, entry: fieldOf(fields) })
      if (entries.length < want) break
      after = found.at(-1)!.id
    }
    return found
  }

  /**
   * The id of the newest entry (`'0-0'` if none). Calls made in one turn of the event loop share one round trip, sent at the
   * end of the turn: each sees every entry appended before it was called.
   */
  lastId(): Promise<string> {
    this.#tail ??= new Promise<string>((resolve, reject) => {
      schedule(() => {
        this.#tail = undefined
        this.#call(() => this.#eval(LAST_ID, [this.#keys.log, this.#keys.snapshot], [])).then((id) => resolve(String(id)), reject)
      })
    })
    return this.#tail
  }

  /** Sets `key` to `value` unless it is set (SET NX): resolves with the value that won. */
  async claim(key: 'meta', value: string): Promise<string> {
    return String(await this.#call(() => this.#eval(CLAIM, [this.#keys[key]], [value])))
  }

  /** The newest snapshot and the id of the last entry it covers. */
  async readSnapshot(): Promise<{ id: string; data: string } | undefined> {
    const [id, data] = (await this.#call(() => this.#client.sendCommand(['HMGET', this.#keys.snapshot, 'id', 'data']))) as Array<string | null>
    return id == null || data == null ? undefined : { id, data }
  }

  /**
   * Keeps `data` as the snapshot covering the entries up to `id` (an entry's id) and trims those from the log, atomically.
   * Resolves `false`, changing nothing, when the snapshot kept covers `id` or more: a slower replica never moves it back.
   */
  async writeSnapshot(id: string, data: string): Promise<boolean> {
    const [ms, seq] = normalizeStreamId(id).split('-').map(BigInt) as [bigint, bigint]
    const firstKept = seq === 0xffff_ffff_ffff_ffffn ? `${ms + 1n}-0` : `${ms}-${seq + 1n}`
    const args = [`${ms}-${seq}`, data, orderOf(id), firstKept]
    return Number(await this.#call(() => this.#eval(WRITE_SNAPSHOT, [this.#keys.snapshot, this.#keys.log], args))) === 1
  }

  /**
   * Appends entries to a world's journal (`null`: the default world), in one round trip, keeping about `maxLen` (at least 1;
   * XADD MAXLEN ~: Redis trims in whole blocks of up to 100). Resolves with their numbers in that journal: from 1 after it
   * was last emptied. `ttlMs` > 0: the journal goes that long after its last append (an isolated world's outlives it).
   */
  async appendJournal(world: string | null, entries: readonly string[], maxLen: number, ttlMs = 0): Promise<number[]> {
    const args = [String(Math.max(1, Math.floor(maxLen))), String(Math.max(0, Math.ceil(ttlMs))), ...entries]
    return ((await this.#call(() => this.#eval(APPEND_JOURNAL, [this.#journalKey(world)], args))) as unknown[]).map(Number)
  }

  /** A world's newest `count` journal entries, oldest first, with their numbers. */
  async readJournal(world: string | null, count: number): Promise<Array<{ id: number; entry: string }>> {
    const args = ['XREVRANGE', this.#journalKey(world), '+', '-', 'COUNT', String(Math.max(1, Math.floor(count)))]
    const entries = (await this.#call(() => this.#client.sendCommand(args))) as Array<[string, string[]]>
    return entries.reverse().map(([id, fields]) => ({ id: Number(id.slice(id.indexOf('-') + 1)), entry: fieldOf(fields) }))
  }

  /** Empties a world's journal: its numbers start again at 1. */
  async clearJournal(world: string | null): Promise<void> {
    await this.#call(() => this.#client.sendCommand(['DEL', this.#journalKey(world)]))
  }

  /** Waits up to `timeoutMs` for answers still due, then closes the connection. */
  async close(): Promise<void> {
    if (!this.#reporting) return // closed already
    this.#reporting = false
    await this.#call(() => this.#client.close()).catch(() => undefined)
    this.#client.destroy()
  }

  /** Runs one round trip within `timeoutMs`, failing only with `StoreUnavailableError`. */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = startTimer(() => reject(new StoreUnavailableError(`Redis at ${this.#where} did not answer within ${this.#timeoutMs} ms.`)), this.#timeoutMs)
    })
    try {
      const value = await Promise.race([run(), late])
      this.#status(true)
      return value
    } catch (error) {
      if (error instanceof this.#redis.ErrorReply) throw new StoreUnavailableError(`Redis at ${this.#where} refused a command: ${reasonOf(error)}.`)
      const timedOut = error instanceof StoreUnavailableError
      this.#status(false, timedOut ? `no answer within ${this.#timeoutMs} ms` : reasonOf(error))
      throw timedOut ? error : new StoreUnavailableError(`Redis at ${this.#where} is unreachable (${reasonOf(error)}).`)
    } finally {
      stopTimer(timer)
    }
  }

  /** World ids are letters, digits, `.`, `_` and `-` (the `x-mock-world` header's): safe in a key. */
  #journalKey(world: string | null): string {
    return world === null ? this.#keys.journal : `${this.#keys.journal}:${world}`
  }

  #eval(code: string, keys: string[], args: string[]): Promise<unknown> {
    return this.#client.sendCommand(['EVAL', code, String(keys.length), ...keys, ...args])
  }

  #status(up: boolean, reason?: string): void {
    if (up === this.#up) return
    this.#up = up
    if (this.#reporting) this.#onStatus?.(up ? { up } : { up, reason: reason ?? 'unknown' })
  }
}

function fieldOf(fields: string[]): string {
  const index = fields.indexOf(FIELD)
  return index % 2 === 0 ? fields[index + 1]! : ''
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message === 'The queue is full' ? 'too many commands waiting for an answer' : message.split('\n')[0]!.replace(/\.$/, '')
}
