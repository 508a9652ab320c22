import { useState } from 'preact/hooks'
import { useAction } from '../action.js'
import type { Api } from '../api.js'
import { Outcome } from '../outcome.js'
import { type ServerInfo, storageOf } from '../data/storage.js'

/**
 * Scenarios (`POST /__mock/scenarios/{name}`) and the whole world as a file:
 * download `GET /__mock/state`, upload one to `PUT /__mock/state` (validated;
 * an invalid file changes nothing and the API says why); download the world's
 * bundle (`GET /__mock/bundle`, what `serve --replay` takes); where the world is kept.
 */
export function WorldPanel({
  api,
  world,
  scenarios,
  info,
}: {
  api: Api
  world: string
  scenarios: Array<{ name: string; description: string; active: boolean }>
  info: ServerInfo
}) {
  const active = scenarios.find((scenario) => scenario.active)?.name ?? ''
  const [chosen, setChosen] = useState('')
  const [act, outcome] = useAction()
  const name = chosen || active
  const download = () =>
    act(async () => {
      const state = (await api.get(`${api.control}/state`)).body
      save(new Blob([`${JSON.stringify(state, null, 2)}\n`], { type: 'application/json' }), `multi-area-mock-${world}.json`)
    }, 'Downloaded the state.')
  // Fetched, not linked: a link cannot carry the token in a header, and the page never puts it in a URL.
  const downloadBundle = () => act(async () => save(await api.file(`${api.control}/bundle`), `mock-world-${world}.json`), 'Downloaded the bundle.')
  const upload = (file: File) =>
    act(async () => {
      let state: unknown
      try {
        state = JSON.parse(await file.text())
      } catch {
        throw new Error(`${file.name} is not JSON; nothing was changed.`)
      }
      await api.send('PUT', `${api.control}/state`, state)
    }, `Loaded ${file.name}.`)
  return (
    <section aria-labelledby="world-heading" class="panel">
      <h2 id="world-heading">Scenario and state</h2>
      <div class="row">
        <label>
          Scenario
          <select value={name} onChange={(event) => setChosen(event.currentTarget.value)}>
            {scenarios.map((scenario) => (
              <option key={scenario.name} value={scenario.name} title={scenario.description}>
                {scenario.name}
                {scenario.active ? ' (loaded)' : ''}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={outcome.busy || name === ''}
          onClick={() => void act(() => api.send('POST', `${api.control}/scenarios/${encodeURIComponent(name)}`), `Loaded scenario ${name}.`)}
        >
          Load scenario
        </button>
      </div>
      <div class="row">
        <button type="button" disabled={outcome.busy} onClick={() => void download()}>
          Download state
        </button>
        <button type="button" disabled={outcome.busy} onClick={() => void downloadBundle()}>
          Download bundle
        </button>
        <label class="file">
          Upload state
          <input
            type="file"
            accept="application/json,.json"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              event.currentTarget.value = ''
              if (file) void upload(file)
            }}
          />
        </label>
      </div>
      <p class="note">{storageOf(info, world).note}</p>
      <Outcome state={outcome} />
    </section>
  )
}

/** Saves `blob` as a file named `name`, through an object URL the browser lets go of once the download has started. */
function save(blob: Blob, name: string): void {
  const link = document.createElement('a')
  link.href = URL.createObjectURL(blob)
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.href), 1000)
}
