/**
 * A call to the store failed (one-line message): no answer in time, connection down (it reconnects in the background), or a
 * refused command. A failed `append` may still be applied (Redis may run it after the timeout): its outcome is unknown.
 * @example
 * try { await log.append(entry) } catch (error) { if (error instanceof StoreUnavailableError) return reply503(error.message) }
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError'
}

/**
 * `readAfter(id)` cannot return every entry after `id`: a snapshot covering up to `snapshotId` trimmed some.
 * @example
 * catch (error) { if (error instanceof LogTrimmedError) await reload(await log.readSnapshot()) }
 */
export class LogTrimmedError extends Error {
  override name = 'LogTrimmedError'
  constructor(readonly snapshotId: string) {
    super(`The log was trimmed up to ${snapshotId} by a snapshot: load the snapshot, then read on from its id.`)
  }
}
