/**
 * What keeps a family's commands outside the process, as `CommandLog` uses it:
 * a kept store (a file) or a shared one (Redis, ordered by stream positions).
 * Node code implements these; this folder stays environment-agnostic.
 */
import type { Command } from './command.js'

/** A store that keeps one process's commands, after they are applied, in their order (`--state-file`). */
export interface KeptCommands {
  readonly kind: 'kept'
  /** Resolves once `command` is durable (appends of one turn share a flush). */
  append(command: Command): Promise<void>
}

/** A store several replicas append to (Redis): its order is the order every replica applies. */
export interface SharedCommands {
  readonly kind: 'shared'
  /** Resolves with the entry's position once it is durable. */
  append(entry: string): Promise<string>
  /**
   * `append`, and in the same round trip the entries after `after` up to the
   * new one (`entries`; `undefined` when they cannot all come at once): a write
   * then needs one round trip, not two.
   */
  appendAfter?(entry: string, after: string): Promise<{ id: string; entries: Array<{ id: string; entry: string }> | undefined }>
  /** Entries after position `id`, oldest first (a page of them; call again for more). */
  readAfter(id: string): Promise<Array<{ id: string; entry: string }>>
  /** The position of the newest entry (one round trip shared by the calls of a turn). */
  lastId(): Promise<string>
  /**
   * The command an entry holds, checked whole; `undefined` for one that holds
   * none (someone else wrote it): skipped, by every replica alike. Called once
   * for each entry this process applies, in the log's order.
   */
  decode(id: string, entry: string): (Command & { origin?: string }) | undefined
  /** Whether the store answers now, and what it is (for `/__mock/health`). */
  status?(): StoreStatus
}

/** A store's state as `/__mock/health` shows it. */
export interface StoreStatus {
  /** What keeps the worlds, without any password: `redis://127.0.0.1:6379/0`. */
  store: string
  up: boolean
  reason?: string
}

/** Either store `CommandLog.use` takes. */
export type CommandStore = KeptCommands | SharedCommands

/** Where a shared log starts: before every entry. */
export const LOG_START = '0-0'

/** Orders two stream positions (`<ms>-<seq>`). */
export function compareIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number)
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number)
  return aMs - bMs || aSeq - bSeq
}
