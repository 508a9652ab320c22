import { useState } from 'preact/hooks'
import { useAction } from '../action.js'
import type { Api } from '../api.js'
import { instant } from '../format.js'
import { Outcome } from '../outcome.js'
import type { ClockView } from '../data/world-data.js'

/**
 * The simulator clock through `POST /__mock/clock`: stop or run it, set it to
 * an instant, advance it by a duration such as `1h` or `90s` (the API checks
 * the words and says what is wrong).
 */
export function ClockPanel({ api, clock, now }: { api: Api; clock: ClockView; now: number }) {
  const [by, setBy] = useState('1h')
  const [at, setAt] = useState('')
  const [act, outcome] = useAction()
  const move = (body: Record<string, unknown>, done: string) => act(() => api.send('POST', `${api.control}/clock`, body), done)
  return (
    <section aria-labelledby="clock-heading" class="panel">
      <h2 id="clock-heading">Clock</h2>
      <p class="clock-now">
        <time dateTime={new Date(now).toISOString()}>{instant(new Date(now).toISOString())}</time> UTC{' '}
        <span class={`pill ${clock.fixed ? 'inactive' : 'active'}`}>{clock.fixed ? 'fixed' : 'running'}</span>
      </p>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault()
          void move({ advance: by.trim() }, `Advanced by ${by.trim()}.`)
        }}
      >
        <label>
          Advance by
          <input type="text" value={by} size={8} onInput={(event) => setBy(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={outcome.busy}>
          Advance clock
        </button>
      </form>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault()
          void move({ set: at.trim() }, `Set to ${at.trim()}.`)
        }}
      >
        <label>
          Set to
          <input type="text" value={at} size={22} placeholder="2026-01-01T00:00:00Z" onInput={(event) => setAt(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={outcome.busy || at.trim() === ''}>
          Set clock
        </button>
      </form>
      <div class="row">
        {clock.fixed ? (
          <button type="button" disabled={outcome.busy} onClick={() => void move({ mode: 'system' }, 'The clock runs.')}>
            Run the clock
          </button>
        ) : (
          <button type="button" disabled={outcome.busy} onClick={() => void move({ mode: 'fixed' }, 'The clock stands still.')}>
            Stop the clock
          </button>
        )}
      </div>
      <Outcome state={outcome} />
    </section>
  )
}
