import { useEffect, useState } from 'preact/hooks'
import { type Api, ApiProblem, problemText } from '../api.js'

/** How long the time line waits before asking again for a point still being rebuilt (the server's `Retry-After`). */
const REBUILD_RETRY_MS = 1000

/** A kept command as `GET /__mock/history` lists it. */
export interface HistoryCommand {
  number: number
  method: string
  path: string
  /** When the server accepted it (ISO). */
  at: string
}

/** One collection's changes, as `GET /__mock/history/{number}` gives them (`StateDiff`). */
export interface CollectionDiff {
  section: string
  collection: string
  keyField: string | null
  added: Array<{ key: string; record: unknown }>
  /** `absent`: the side where the field was not there at all (its value reads `null`). */
  changed: Array<{ key: string; fields: Array<{ name: string; before: unknown; after: unknown; absent?: 'before' | 'after' }> }>
  removed: Array<{ key: string; record: unknown }>
}

/** What `GET /__mock/history/{number}` answers: the world before the command, and what the command changed. */
export interface HistoryPoint {
  commands: number
  command: HistoryCommand
  /** The world's clock when the command arrived (ISO). */
  clock: string
  /** The world before it, as `GET /__mock/state` answers (no password hashes). */
  // biome-ignore lint/suspicious/noExplicitAny: the state document, read field by field by the tables
  state: any
  diff: { records: number; collections: CollectionDiff[]; values: Array<{ path: string; before: unknown; after: unknown; absent?: 'before' | 'after' }> }
}

/** The time line as the page shows it now. */
export interface TimelineView {
  /** The kept commands, oldest first; `null` until loaded. */
  commands: HistoryCommand[] | null
  /** The command chosen; `null` while the page shows the live world. */
  chosen: number | null
  /** The world before the chosen command once loaded (the one before stays shown while the next loads); `null` when live. */
  point: HistoryPoint | null
  problem: string | null
}

const LIVE: TimelineView = { commands: null, chosen: null, point: null, problem: null }

/**
 * The time line of the world the page shows (issue 35): the world's kept
 * commands, read again whenever the world changed, and the world before the
 * command chosen. Read-only: only `GET`s of `/history`, so the live world is
 * never written. While you drag through it, one answer is awaited at a time
 * and only the command chosen last is asked for next, so the page follows as
 * fast as the server answers and never falls behind. A store apart from the
 * page's state, so that a step re-renders only what shows the time line
 * (`useTimeline`), never the journal.
 *
 * @example
 * const timeline = new Timeline(api)
 * timeline.follow('default', data) // after each reload of the world
 * timeline.choose(12) // the world before its 12th command
 */
export class Timeline {
  readonly #api: Api
  #view: TimelineView = LIVE
  #world: string | null = null
  #running = false
  #wanted: number | null = null
  /** When the held commands' history started: another answer means it started again. */
  #startedAt = ''
  #listing: { running: boolean; again: boolean } = { running: false, again: false }
  readonly #listeners = new Set<() => void>()

  constructor(api: Api) {
    this.#api = api
  }

  get view(): TimelineView {
    return this.#view
  }

  /** Calls `listener` after every change of `view`; returns the way to stop. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * The page shows `world`, as loaded again (`version`; `null` while the page
   * may not read it): its kept commands are read again. Another world starts
   * live. A history started again (a restored snapshot) may hold fewer
   * commands than the one chosen: back to the live world then.
   */
  follow(world: string, version: unknown): void {
    if (world !== this.#world) {
      this.#world = world
      this.#wanted = null
      this.#startedAt = ''
      this.#listing = { running: false, again: false }
      this.#set(LIVE)
    }
    if (version !== null) void this.#list()
  }

  /** Reads the commands added since the last read (all of them when the history started again), one read at a time. */
  async #list(): Promise<void> {
    const listing = this.#listing
    if (listing.running) return void (listing.again = true)
    listing.running = true
    const held = this.#view.commands ?? []
    try {
      const whole = this.#startedAt === ''
      const from = whole ? 1 : held.length + 1
      const { body } = await this.#api.get<{ startedAt: string; count: number; commands: HistoryCommand[] }>(`${this.#api.control}/history?from=${from}`)
      if (listing !== this.#listing) return
      if (!whole && (body.startedAt !== this.#startedAt || body.count < held.length)) {
        // Started again since: read it whole.
        this.#startedAt = ''
        listing.again = true
        return
      }
      this.#startedAt = body.startedAt
      const commands = whole ? body.commands : [...held, ...body.commands]
      // A history that started again numbers other commands: the one chosen is gone.
      const gone = this.#view.chosen !== null && ((whole && this.#view.commands !== null) || this.#view.chosen > commands.length)
      if (gone) this.#wanted = null
      this.#set({ ...this.#view, commands, ...(gone ? { chosen: null, point: null } : {}) })
    } catch (error) {
      if (listing === this.#listing) this.#set({ ...this.#view, problem: problemText(error) })
    } finally {
      listing.running = false
      if (listing.again && listing === this.#listing) {
        listing.again = false
        void this.#list()
      }
    }
  }

  /** Shows the world before command `number`, or the live world again (`null`). */
  choose(number: number | null): void {
    this.#wanted = number
    this.#set({ ...this.#view, chosen: number, ...(number === null ? { point: null } : {}) })
    if (number !== null) void this.#next()
  }

  async #next(): Promise<void> {
    const number = this.#wanted
    if (this.#running || number === null) return
    const world = this.#world
    this.#running = true
    try {
      const { body } = await this.#api.get<HistoryPoint>(`${this.#api.control}/history/${number}`)
      if (world === this.#world && this.#wanted !== null) this.#set({ ...this.#view, point: body, problem: null })
    } catch (error) {
      if (world === this.#world) this.#set({ ...this.#view, problem: problemText(error) })
      // A long history is still being rebuilt (503): what it built stays built, so asking again goes on from there.
      if (error instanceof ApiProblem && error.status === 503) setTimeout(() => this.#retry(world, number), REBUILD_RETRY_MS)
    } finally {
      this.#running = false
      if (this.#wanted === number) this.#wanted = null
      else void this.#next()
    }
  }

  #retry(world: string | null, number: number): void {
    if (world !== this.#world || this.#view.chosen !== number || this.#wanted !== null) return
    this.#wanted = number
    void this.#next()
  }

  #set(view: TimelineView): void {
    this.#view = view
    for (const listener of this.#listeners) listener()
  }
}

/**
 * The time line's view, re-rendering the component that reads it at every change.
 *
 * @example
 * const { chosen, point } = useTimeline(timeline)
 */
export function useTimeline(timeline: Timeline): TimelineView {
  const [view, setView] = useState(timeline.view)
  useEffect(() => {
    setView(timeline.view)
    return timeline.subscribe(() => setView(timeline.view))
  }, [timeline])
  return view
}
