import { useState } from 'preact/hooks'
import { instant, pretty } from '../format.js'

/** A journal entry as `GET /__mock/requests` and the `request` event carry it (already redacted by the server). */
export interface JournalEntry {
  id: number
  time: string
  method: string
  url: string
  path: string
  area: string
  route: string | null
  status: number
  durationMs: number
  world: string | null
  fault: string | null
  /** The replica that answered (`serve --store`); absent without replicas. */
  replica?: string
  requestHeaders: Record<string, string>
  requestBody: unknown
  responseBody: unknown
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
const CLASSES = ['2xx', '3xx', '4xx', '5xx']

/** `0` (a dropped connection) is its own class. */
function statusClass(status: number): string {
  return status === 0 ? 'dropped' : `${Math.floor(status / 100)}xx`
}

/**
 * The request journal, live and newest first: filters by area, method and
 * status class; a row opens the request and the response as the journal
 * keeps them (headers and bodies with every secret `[redacted]` by the server).
 * With replicas (`serve --store`), a column says which one answered each.
 */
export function JournalPanel({ entries, areas, capacity, onClear }: { entries: JournalEntry[]; areas: string[]; capacity: number; onClear: () => void }) {
  const [area, setArea] = useState('')
  const [method, setMethod] = useState('')
  const [klass, setKlass] = useState('')
  const [open, setOpen] = useState<number | null>(null)
  const shown = entries.filter(
    (entry) => (area === '' || entry.area === area) && (method === '' || entry.method === method) && (klass === '' || statusClass(entry.status) === klass),
  )
  const selected = entries.find((entry) => entry.id === open)
  const replicas = entries.some((entry) => entry.replica !== undefined)
  return (
    <section aria-label="Request journal" class="panel journal">
      <header class="panel-head">
        <h2>Request journal</h2>
        <span class="note">{capacity === 0 ? 'journaling is off (--journal-size 0)' : `${entries.length} shown, newest first`}</span>
      </header>
      <div class="filters">
        <label>
          Area
          <select value={area} onChange={(event) => setArea(event.currentTarget.value)}>
            <option value="">All</option>
            {areas.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Method
          <select value={method} onChange={(event) => setMethod(event.currentTarget.value)}>
            <option value="">All</option>
            {METHODS.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={klass} onChange={(event) => setKlass(event.currentTarget.value)}>
            <option value="">All</option>
            {CLASSES.map((name) => (
              <option key={name}>{name}</option>
            ))}
            <option value="dropped">dropped</option>
          </select>
        </label>
        <button type="button" onClick={onClear}>
          Clear journal
        </button>
      </div>
      <div class="journal-body">
        <div class="scroll journal-list">
          <table>
            <caption class="visually-hidden">Requests</caption>
            <thead>
              <tr>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
                <th scope="col">ms</th>
                {replicas && <th scope="col">Replica</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((entry) => (
                <tr key={entry.id} class={entry.id === open ? 'selected' : undefined}>
                  <td>
                    <button type="button" class="link" aria-expanded={entry.id === open} onClick={() => setOpen(entry.id === open ? null : entry.id)}>
                      <span class="method">{entry.method}</span> {entry.path}
                    </button>
                  </td>
                  <td>
                    <span class={`pill s${statusClass(entry.status)}`}>{entry.status === 0 ? 'dropped' : entry.status}</span>
                    {entry.fault && <span class="fault"> {entry.fault}</span>}
                  </td>
                  <td>{instant(entry.time).slice(11)}</td>
                  <td>{entry.durationMs.toFixed(1)}</td>
                  {replicas && <td class="replica">{entry.replica ?? ''}</td>}
                </tr>
              ))}
            </tbody>
          </table>
          {shown.length === 0 && <p class="empty">No requests yet{entries.length > 0 ? ' match the filters' : ''}.</p>}
        </div>
        {selected && <EntryDetail entry={selected} onClose={() => setOpen(null)} />}
      </div>
    </section>
  )
}

function EntryDetail({ entry, onClose }: { entry: JournalEntry; onClose: () => void }) {
  return (
    <section aria-label={`Request ${entry.id}`} class="detail">
      <header class="panel-head">
        <h3>
          #{entry.id} {entry.method} {entry.path} → {entry.status === 0 ? 'dropped' : entry.status}
        </h3>
        <button type="button" onClick={onClose} aria-label="Close request detail">
          Close
        </button>
      </header>
      <dl class="facts small">
        <div>
          <dt>URL</dt>
          <dd class="wrap">{entry.url}</dd>
        </div>
        <div>
          <dt>Route</dt>
          <dd>{entry.route ?? '(none: 404 or 405)'}</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>
            {instant(entry.time)} · {entry.durationMs} ms
          </dd>
        </div>
        {entry.fault && (
          <div>
            <dt>Fault</dt>
            <dd>{entry.fault}</dd>
          </div>
        )}
        {entry.replica && (
          <div>
            <dt>Replica</dt>
            <dd>{entry.replica}</dd>
          </div>
        )}
      </dl>
      <h4>Request body</h4>
      <pre aria-label="Request body">{pretty(entry.requestBody)}</pre>
      <h4>Response body</h4>
      <pre aria-label="Response body">{pretty(entry.responseBody)}</pre>
      <h4>Request headers</h4>
      <table class="headers">
        <caption class="visually-hidden">Request headers</caption>
        <tbody>
          {Object.entries(entry.requestHeaders).map(([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td class="wrap">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
