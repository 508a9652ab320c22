import { useState } from 'preact/hooks'
import { useAction } from '../action.js'
import type { Api } from '../api.js'
import { instant } from '../format.js'
import { Outcome } from '../outcome.js'
import { Pager } from './pager.js'
import { DataTable } from './data-table.js'

const PAGE_SIZE = 20

interface User {
  id: string
  username: string
  email: string
  status: 'pending' | 'active' | 'inactive'
  created_at: string
}

/** What a user's status lets you do through Area A (`PUT /users/{id}`): the button's words, the new status, what it did. */
const NEXT: Record<User['status'], [string, 'active' | 'inactive', string]> = {
  pending: ['Approve', 'active', 'Approved'],
  active: ['Deactivate', 'inactive', 'Deactivated'],
  inactive: ['Activate', 'active', 'Activated'],
}

/**
 * The shared users (`state.accounts.users`), newest first: status filter,
 * search by name or email, 20 a page; approving, deactivating and activating
 * go through Area A's `PUT /api/v1.2/users/{id}`, so its rules and errors apply.
 */
export function UsersTable({ api, users, admin }: { api: Api; users: User[]; admin: string | undefined }) {
  const [status, setStatus] = useState('')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const [act, outcome] = useAction()
  const needle = search.trim().toLowerCase()
  const shown = [...users]
    .reverse()
    .filter((user) => (status === '' || user.status === status) && (needle === '' || user.username.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle)))
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE))
  const current = Math.min(page, pages)
  const rows = shown.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE)
  const change = (user: User) => {
    const [, next, did] = NEXT[user.status]
    void act(() => api.send('PUT', `${admin}/api/v1.2/users/${encodeURIComponent(user.id)}`, { status: next }), `${did} ${user.username}.`)
  }
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading" class="visually-hidden">
        Users
      </h2>
      <div class="filters">
        <label>
          Status
          <select value={status} onChange={(event) => (setStatus(event.currentTarget.value), setPage(1))}>
            <option value="">All</option>
            <option value="pending">Pending</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </select>
        </label>
        <label>
          Search users
          <input type="search" value={search} placeholder="name or email" onInput={(event) => (setSearch(event.currentTarget.value), setPage(1))} />
        </label>
      </div>
      <Outcome state={outcome} />
      <DataTable
        caption="Users"
        columns={['Username', 'Email', 'Status', { label: 'Created', class: 'wide-only' }, ...(admin !== undefined ? ['Action'] : [])]}
        after={rows.length === 0 && <p class="empty">No users match.</p>}
      >
        {rows.map((user) => (
          <tr key={user.id}>
            <th scope="row">{user.username}</th>
            <td>{user.email}</td>
            <td>
              <span class={`pill ${user.status}`}>{user.status}</span>
            </td>
            <td class="wide-only">{instant(user.created_at)}</td>
            {admin !== undefined && (
              <td>
                <button type="button" aria-label={`${NEXT[user.status][0]} ${user.username}`} disabled={outcome.busy} onClick={() => change(user)}>
                  {NEXT[user.status][0]}
                </button>
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      <Pager label="Users" page={current} size={PAGE_SIZE} total={shown.length} onPage={setPage} />
    </section>
  )
}
