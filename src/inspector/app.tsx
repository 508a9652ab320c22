import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { Api, ApiProblem, DEFAULT_WORLD, problemText, TOKEN_KEY } from './api.js'
import { ClockPanel } from './panels/clock-panel.js'
import { openFeed } from './data/event-feed.js'
import { FaultsPanel } from './panels/faults-panel.js'
import { type JournalEntry, JournalPanel } from './panels/journal-panel.js'
import { Timeline } from './timeline/timeline-data.js'
import { TimelinePanel } from './timeline/timeline-panel.js'
import { TimelineWorld } from './timeline/timeline-world.js'
import { TokenPrompt } from './token-prompt.js'
import { clockNow, loadWorld, type WorldData } from './data/world-data.js'
import type { ServerInfo } from './data/storage.js'
import { WorldPanel } from './panels/world-panel.js'
import { WorldSwitcher } from './panels/world-switcher.js'

/** Journal entries the page holds; the server's journal may hold more (`GET /__mock/requests`). */
const JOURNAL_SHOWN = 300

/** With replicas, how often the journal is read back: other replicas' requests reach this page no other way. */
const SHARED_JOURNAL_POLL_MS = 2_000

type Access = { phase: 'checking' } | { phase: 'token'; refused: boolean } | { phase: 'ready'; info: ServerInfo } | { phase: 'failed'; message: string }

/** The world named in the page's address (`#world=w1`), so a reload stays on it. */
function worldFromHash(): string {
  return /(?:^#|&)world=([A-Za-z0-9._-]{1,64})/.exec(location.hash)?.[1] ?? DEFAULT_WORLD
}

/**
 * The inspector: asks for the control token when the server wants one, then
 * shows the chosen world (areas, journal, controls) and keeps it current from
 * the events stream: a journal entry is added as it arrives, a change of the
 * world reloads what the page shows (at most every 100 ms).
 */
export function App({ control }: { control: string }) {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY))
  const [access, setAccess] = useState<Access>({ phase: 'checking' })
  const [world, setWorld] = useState(worldFromHash)
  const [data, setData] = useState<WorldData | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [journal, setJournal] = useState<JournalEntry[]>([])
  const [capacity, setCapacity] = useState(0)
  const [feed, setFeed] = useState<'connecting' | 'live' | 'retrying'>('connecting')
  const [, tick] = useState(0)
  const tokenRef = useRef(token)
  const worldRef = useRef(world)
  tokenRef.current = token
  worldRef.current = world
  const api = useMemo(
    () =>
      new Api(
        control,
        () => tokenRef.current,
        () => worldRef.current,
      ),
    [control],
  )

  // Is the token (or none) good? The page shows no data until the server says so.
  useEffect(() => {
    setAccess({ phase: 'checking' })
    api
      .get<ServerInfo>(`${control}/ui/server.json`)
      .then((answer) => setAccess({ phase: 'ready', info: answer.body }))
      .catch((error: unknown) => {
        if (error instanceof ApiProblem && error.status === 401) {
          if (token !== null) sessionStorage.removeItem(TOKEN_KEY)
          setAccess({ phase: 'token', refused: token !== null })
        } else setAccess({ phase: 'failed', message: problemText(error) })
      })
  }, [api, control, token])

  const ready = access.phase === 'ready'
  // Only state setters inside: the same function for the page's whole life.
  const choose = useCallback((next: string, message: string | null = null) => {
    history.replaceState(null, '', next === DEFAULT_WORLD ? location.pathname : `#world=${next}`)
    setWorld(next)
    setData(null)
    setJournal([])
    setProblem(message)
  }, [])

  // Loads of the world and the journal, at most one at a time; changes meanwhile load once more after.
  const loader = useRef({ running: false, again: false, timer: 0 as ReturnType<typeof setTimeout> | 0 })
  const reload = useMemo(() => {
    const run = async () => {
      const state = loader.current
      if (state.running) return void (state.again = true)
      state.running = true
      const forWorld = worldRef.current
      try {
        const [loaded, requests] = await Promise.all([loadWorld(api), api.get(`${control}/requests?limit=${JOURNAL_SHOWN}`)])
        if (forWorld !== worldRef.current) return
        setData(loaded)
        setCapacity(requests.body.capacity)
        const entries = requests.body.entries as JournalEntry[]
        setJournal((held) => (loaded.shared ? newestFirst(entries) : mergeJournal(held, entries)))
        setProblem(null)
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 401) setAccess({ phase: 'token', refused: true })
        else if (error instanceof ApiProblem && error.status === 404 && forWorld !== DEFAULT_WORLD)
          choose(DEFAULT_WORLD, `The world "${forWorld}" is gone; showing the default world.`)
        else setProblem(problemText(error))
      } finally {
        state.running = false
        if (state.again) {
          state.again = false
          void run()
        }
      }
    }
    return (soon = false) => {
      if (!soon) return void run()
      if (loader.current.timer) return
      loader.current.timer = setTimeout(() => {
        loader.current.timer = 0
        void run()
      }, 100)
    }
  }, [api, control, choose])

  // The chosen world: load it, then follow its events.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read through worldRef, `world` is what opens a new stream for the world chosen
  useEffect(() => {
    if (!ready) return
    reload()
    setFeed('connecting')
    const events = `${control}/events`
    const stream = openFeed({
      url: events,
      headers: () => api.headers(events),
      onStatus: (status, detail) => {
        if (status === 'refused') return setAccess({ phase: 'token', refused: true })
        setFeed(status)
        if (status === 'retrying' && detail) console.info(`[inspector] ${detail}`)
      },
      onEvent: (event) => {
        const payload = JSON.parse(event.data)
        if (event.event === 'hello') reload(true)
        else if (event.event === 'request') setJournal((held) => [payload as JournalEntry, ...held.filter((entry) => entry.id !== payload.id)].slice(0, JOURNAL_SHOWN))
        else if (event.event === 'change') {
          // A reset or a new scenario empties the journal; the held entries go with it.
          if (payload.cause !== 'request' || String(payload.url).includes(`${control}/requests`)) setJournal([])
          reload(true)
        } else if (event.event === 'gone') choose(DEFAULT_WORLD, `The world "${worldRef.current}" was deleted or expired; showing the default world.`)
      },
    })
    return () => stream.close()
  }, [ready, world, api, control, reload, choose])

  // Replicas (`serve --store`): the shared journal is read back now and then, as it holds every replica's requests and
  // may have been emptied through another one. Reading also has this replica apply what the others changed, whose
  // change events reload the world.
  const shared = data?.shared === true
  // biome-ignore lint/correctness/useExhaustiveDependencies: read through worldRef, `world` starts the reads afresh for the world chosen
  useEffect(() => {
    if (!ready || !shared) return
    const timer = setInterval(() => {
      const forWorld = worldRef.current
      api
        .get(`${control}/requests?limit=${JOURNAL_SHOWN}`)
        .then((requests) => {
          if (forWorld === worldRef.current) setJournal(newestFirst(requests.body.entries as JournalEntry[]))
        })
        .catch(() => undefined) // the next read, or the world's reload, says what is wrong
    }, SHARED_JOURNAL_POLL_MS)
    return () => clearInterval(timer)
  }, [ready, shared, world, api, control])

  // The time line follows the world as it changes (each reload of it), once the page may read it.
  const timeline = useMemo(() => new Timeline(api), [api])
  useEffect(() => timeline.follow(world, ready ? data : null), [timeline, world, ready, data])

  // A running clock moves the time shown (and the chain's head) without a request.
  useEffect(() => {
    if (!data || data.clock.fixed) return
    const timer = setInterval(() => tick((n) => n + 1), 1000)
    return () => clearInterval(timer)
  }, [data])

  if (access.phase === 'checking') return <p class="loading">Connecting…</p>
  if (access.phase === 'failed')
    return (
      <p class="outcome error" role="alert">
        {access.message}
      </p>
    )
  if (access.phase === 'token') {
    return (
      <>
        <Top world={null} />
        <TokenPrompt
          refused={access.refused}
          onToken={(given) => {
            sessionStorage.setItem(TOKEN_KEY, given)
            setToken(given)
          }}
        />
      </>
    )
  }
  const now = data ? clockNow(data) : Date.now()
  return (
    <>
      <Top world={<WorldSwitcher key={world} api={api} world={world} onChoose={(next) => choose(next)} info={access.info} feed={feed} />} />
      {problem && (
        <p class="outcome error banner" role="alert">
          {problem}
        </p>
      )}
      {data === null ? (
        <p class="loading">Loading the world…</p>
      ) : (
        <main class="layout">
          <section class="panel areas" aria-label="World">
            <TimelineWorld timeline={timeline} api={api} data={data} now={now} />
          </section>
          <JournalPanel
            entries={journal}
            capacity={capacity}
            areas={data.areas.map((area) => area.id)}
            onClear={() => void api.send('DELETE', `${control}/requests`).catch((error) => setProblem(problemText(error)))}
          />
          <aside class="controls" aria-label="Controls">
            <TimelinePanel timeline={timeline} />
            <ClockPanel api={api} clock={data.clock} now={now} />
            <FaultsPanel api={api} rules={data.faults} />
            <WorldPanel api={api} world={world} scenarios={data.scenarios} info={access.info} />
          </aside>
        </main>
      )}
    </>
  )
}

function Top({ world }: { world: preact.ComponentChildren }) {
  return (
    <header class="top">
      <h1>multi-area-mock inspector</h1>
      {world}
    </header>
  )
}

/**
 * A shared journal as loaded, newest first: its numbers start again at 1 when another replica empties it, so
 * what the page held is not merged in (entries arriving as events meanwhile come back with the next read).
 */
function newestFirst(loaded: JournalEntry[]): JournalEntry[] {
  return [...loaded].reverse().slice(0, JOURNAL_SHOWN)
}

/** The journal as loaded, newest first, with entries that arrived as events meanwhile kept on top. */
function mergeJournal(held: JournalEntry[], loaded: JournalEntry[]): JournalEntry[] {
  const newest = loaded.length > 0 ? loaded[loaded.length - 1]!.id : 0
  const arrived = held.filter((entry) => entry.id > newest)
  return [...arrived, ...[...loaded].reverse()].slice(0, JOURNAL_SHOWN)
}
