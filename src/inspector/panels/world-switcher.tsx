import { useCallback, useEffect, useState } from 'preact/hooks'
import { useAction } from '../action.js'
import { type Api, DEFAULT_WORLD } from '../api.js'
import { Outcome } from '../outcome.js'
import { type ServerInfo, storageOf } from '../data/storage.js'

/** How often the list of isolated worlds is read again (they come and go through the API). */
const WORLDS_EVERY_MS = 3000

/**
 * The header's controls: which world the page shows (the default one or an
 * isolated world alive now, `GET /__mock/worlds`), "Reset world" for it
 * (`POST /__mock/reset`), where the world is kept, and whether the live feed is up.
 */
export function WorldSwitcher({
  api,
  world,
  onChoose,
  info,
  feed,
}: {
  api: Api
  world: string
  onChoose: (world: string) => void
  info: ServerInfo
  feed: 'connecting' | 'live' | 'retrying'
}) {
  const [worlds, setWorlds] = useState<string[]>([])
  const [act, outcome] = useAction()
  const list = useCallback(
    () =>
      void api
        .get(`${api.control}/worlds`)
        .then((answer) => setWorlds((answer.body.worlds as Array<{ id: string }>).map((entry) => entry.id)))
        .catch(() => undefined),
    [api],
  )
  useEffect(() => {
    list()
    const timer = setInterval(list, WORLDS_EVERY_MS)
    return () => clearInterval(timer)
  }, [list])
  const storage = storageOf(info, world)
  const options = [DEFAULT_WORLD, ...worlds.filter((id) => id !== DEFAULT_WORLD)]
  if (!options.includes(world)) options.push(world)
  return (
    <div class="world-bar">
      <label>
        World
        <select value={world} onFocus={list} onChange={(event) => onChoose(event.currentTarget.value)}>
          {options.map((id) => (
            <option key={id} value={id}>
              {id === DEFAULT_WORLD ? 'default world' : id}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={outcome.busy}
        onClick={() => void act(() => api.send('POST', `${api.control}/reset`), `Reset ${world === DEFAULT_WORLD ? 'the default world' : world}.`)}
      >
        Reset world
      </button>
      <span class="kept" title={storage.title}>
        {storage.label}
      </span>
      <span class={`feed ${feed}`} role="status">
        {feed === 'live' ? 'Live' : feed === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
      </span>
      <Outcome state={outcome} />
    </div>
  )
}
