import { instant } from './format.js'

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
      <div class="scroll">
        <table>
          <caption>Resources</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Title</th>
              <th scope="col">Owner</th>
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {resources.map((resource) => (
              <tr key={resource.id}>
                <td>{resource.id}</td>
                <th scope="row">{text(resource.data.title)}</th>
                <td>{text(resource.data.owner)}</td>
                <td>{text(resource.data.status)}</td>
                <td>{instant(resource.updated_at ?? resource.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="scroll">
        <table>
          <caption>Notifications</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Message</th>
              <th scope="col">Recipients</th>
              <th scope="col">Priority</th>
              <th scope="col">Status</th>
              <th scope="col">Delivered at</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
        {notifications.length === 0 && <p class="empty">No notifications: send one with POST /general/notifications/send.</p>}
      </div>
    </section>
  )
}
