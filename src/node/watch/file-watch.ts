import { type FSWatcher, watch } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'

/** How long a file must stay unchanged before it is read: an editor's save (emptied then written, or written then renamed) is one change. */
export const SETTLE_MS = 150

export interface FileWatchOptions {
  /** Milliseconds without a change before `onChange` runs (default `SETTLE_MS`). */
  settleMs?: number
  /** The folder can no longer be watched (removed, no permission): told once, and the watch stops. */
  onError?: (error: Error) => void
}

/**
 * Runs `onChange` once a file changed and then stayed unchanged for
 * `settleMs`, however many writes the save took. The file's folder is
 * watched, not the file: an editor that saves through a rename replaces the
 * file, and a watch on the old one would hear nothing more. Runs never
 * overlap: a change during one runs once it is over. `close()` stops
 * watching and waits for a run under way.
 *
 * @example
 * const watched = new FileWatch('./team.json', async () => reload())
 * await watched.close()
 */
export class FileWatch {
  /** The absolute path watched. */
  readonly file: string
  readonly #onChange: () => Promise<void>
  readonly #settleMs: number
  readonly #watcher: FSWatcher
  #timer: ReturnType<typeof setTimeout> | undefined
  #running: Promise<void> = Promise.resolve()
  #closed = false

  constructor(file: string, onChange: () => Promise<void>, options: FileWatchOptions = {}) {
    this.file = resolve(file)
    this.#onChange = onChange
    this.#settleMs = options.settleMs ?? SETTLE_MS
    const name = basename(this.file)
    // Not `persistent`: the server keeps the process alive, never the watch.
    this.#watcher = watch(dirname(this.file), { persistent: false }, (_event, changed) => {
      // Some platforms do not say which file changed: then any change of the folder is read.
      if (changed === null || changed === name) this.#schedule()
    })
    this.#watcher.on('error', (error) => {
      void this.close()
      options.onError?.(error)
    })
  }

  /** Stops watching; resolves once a run under way is over. */
  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#timer)
    this.#watcher.close()
    await this.#running
  }

  #schedule(): void {
    if (this.#closed) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      if (this.#closed) return
      // `onChange` reports its own failures; a throw must not stop the runs after it.
      this.#running = this.#running.then(() => this.#onChange()).catch(() => undefined)
    }, this.#settleMs)
  }
}
