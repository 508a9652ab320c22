import { instant } from '../format.js'
import { DataTable } from './data-table.js'

interface Resource {
  id: number
  data: Record<string, unknown>
  created_at: string
  updated_at?: string
}

interface Notification {
  id: string
  recipients: number[]
  message: string
  priority: string
  status?: 'queued' | 'delivered'
  queued_at: string
  delivered_at?: string | null
}

/** Area D's resources and notifications (queued until their delivery time on the simulator clock). */
export function GeneralTables({ resources, notifications, now }: { resources: Resource[]; notifications: Notification[]; now: number }) {
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '—')
  return (
    <section aria-label="Resources and notifications" class="stack">
      <DataTable caption="Resources" columns={['Id', 'Title', 'Owner', 'Status', 'Updated']}>
        {resources.map((resource) => (
          <tr key={resource.id}>
            <td>{resource.id}</td>
            <th scope="row">{text(resource.data.title)}</th>
            <td>{text(resource.data.owner)}</td>
            <td>{text(resource.data.status)}</td>
            <td>{instant(resource.updated_at ?? resource.created_at)}</td>
          </tr>
        ))}
      </DataTable>
      <DataTable
        caption="Notifications"
        columns={['Id', 'Message', 'Recipients', 'Priority', 'Status', 'Delivered at']}
        after={notifications.length === 0 && <p class="empty">No notifications: send one with POST /general/notifications/send.</p>}
      >
        {[...notifications].reverse().map((notification) => {
          // Derived as the server derives it (D20), so a running clock delivers without a reload.
          const delivered = notification.delivered_at ? Date.parse(notification.delivered_at) <= now : notification.status === 'delivered'
          return (
            <tr key={notification.id}>
              <td>
                <code>{notification.id}</code>
              </td>
              <th scope="row">{notification.message}</th>
              <td>{notification.recipients.join(', ')}</td>
              <td>{notification.priority}</td>
              <td>
                <span class={`pill ${delivered ? 'active' : 'pending'}`}>{delivered ? 'delivered' : 'queued'}</span>
              </td>
              <td>{instant(notification.delivered_at)}</td>
            </tr>
          )
        })}
      </DataTable>
    </section>
  )
}
