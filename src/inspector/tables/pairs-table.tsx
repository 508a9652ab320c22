import { instant, short } from '../format.js'
import { DataTable } from './data-table.js'

interface Particle {
  id: string
  state: string
  measurement_axis: string | null
  last_measured: string | null
}

interface Pair {
  particle_type: string
  entanglement_mode: string
  created_at: string
  particles: [Particle, Particle]
}

/** Area C's entangled pairs: each particle's state (the measured result once collapsed) beside its partner's. */
export function PairsTable({ pairs }: { pairs: Pair[] }) {
  return (
    <section aria-label="Particle pairs">
      <DataTable
        caption="Particle pairs"
        columns={['Particle', 'State', 'Partner', 'Partner state', 'Type', 'Axis', 'Measured']}
        after={pairs.length === 0 && <p class="empty">No pairs: create one with POST /quantum/v1/entangle.</p>}
      >
        {[...pairs].reverse().map(({ particles: [a, b], ...pair }) => (
          <tr key={a.id}>
            <th scope="row" title={a.id}>
              <code>{short(a.id, 10)}</code>
            </th>
            <td>
              <span class={`pill ${a.state === 'superposition' ? 'pending' : 'active'}`}>{a.state}</span>
            </td>
            <td title={b.id}>
              <code>{short(b.id, 10)}</code>
            </td>
            <td>
              <span class={`pill ${b.state === 'superposition' ? 'pending' : 'active'}`}>{b.state}</span>
            </td>
            <td>
              {pair.particle_type} ({pair.entanglement_mode})
            </td>
            <td>{a.measurement_axis ?? b.measurement_axis ?? '—'}</td>
            <td>{instant(a.last_measured ?? b.last_measured)}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  )
}
