// app/page.jsx
import { ClientUser } from './client-user.jsx'

// Rendered for each request, never once at build time: each test's world has users of its own.
export const dynamic = 'force-dynamic'

export default async function Page() {
  // On the server, to API_URL: the simulator server under test, your API otherwise.
  const [user] = await (await fetch(`${process.env.API_URL}/admin/api/v1.2/users?limit=1`)).json()
  return (
    <main>
      <p>
        Rendered on the server: <span id="server-user">{user.username}</span>
      </p>
      <ClientUser />
    </main>
  )
}
