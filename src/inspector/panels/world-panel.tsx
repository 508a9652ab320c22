import { useState } from 'preact/hooks'
import { useAction } from '../action.js'
import type { Api } from '../api.js'
import { Outcome } from '../outcome.js'

/**
 * Scenarios (`POST /__mock/scenarios/{name}`) and the whole world as a file:
 * download `GET /__mock/state`, upload one to `PUT /__mock/state` (validated;
 * an invalid file changes nothing and the API says why).
 */
export function WorldPanel({
  api,
  world,
  scenarios,
  stateFile,
}: {
  api: Api
  world: string
  scenarios: Array<{ name: string; description: string; active: boolean }>
  stateFile: string | null
}) {
  const active = scenarios.find((scenario) => scenario.active)?.name ?? ''
  const [chosen, setChosen] = useState('')
  const [act, outcome] = useAction()
  const name = chosen || active
  const download = () =>
    act(async () => {
      const state = (await api.get(`${api.control}/state`)).body
      const link = document.createElement('a')
      link.href = URL.createObjectURL(new Blob([`${JSON.stringify(state, null, 2)}\n`], { type: 'application/json' }))
      link.download = `multi-area-mock-${world}.json`
      link.click()
      setTimeout(() => URL.revokeObjectURL(link.href), 1000)
    }, 'Downloaded the state.')
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
      <p class="note">
        {world !== 'default'
          ? 'An isolated world lives in memory until it is deleted or expires.'
          : stateFile
            ? `This world is kept in ${stateFile} (saved after each change).`
            : 'This world lives in memory; start the server with --state-file to keep it.'}
      </p>
      <Outcome state={outcome} />
    </section>
  )
}
