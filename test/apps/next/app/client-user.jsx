// app/client-user.jsx
'use client'
import { useEffect, useState } from 'react'

export function ClientUser() {
  const [username, setUsername] = useState('loading…')
  useEffect(() => {
    // In the browser, to the app's own origin: the rewrites take it on to the simulator.
    fetch('/admin/api/v1.2/users?limit=1')
      .then((response) => response.json())
      .then(([user]) => setUsername(user.username))
  }, [])
  return (
    <p>
      Fetched in the browser: <span id="client-user">{username}</span>
    </p>
  )
}
