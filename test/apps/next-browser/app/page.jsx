'use client'
import { useEffect, useState } from 'react'

export default function Page() {
  const [username, setUsername] = useState('loading…')
  useEffect(() => {
    fetch('/admin/api/v1.2/users?limit=1')
      .then((response) => response.json())
      .then(([user]) => setUsername(user.username))
  }, [])
  return (
    <p>
      First user: <span id="username">{username}</span>
    </p>
  )
}
