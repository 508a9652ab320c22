// app/mock-provider.jsx
'use client'
import { useEffect, useState } from 'react'

/** The simulator's start, once however often React mounts the provider. */
let starting

export function MockProvider({ children }) {
  // In development the app renders once the service worker answers, so it answers the first request too.
  const [ready, setReady] = useState(process.env.NODE_ENV !== 'development')
  useEffect(() => {
    // In development only: `next build` makes NODE_ENV 'production', and the bundler
    // leaves the import out, the simulator and msw with it.
    if (process.env.NODE_ENV !== 'development') return
    starting ??= import('multi-area-mock/browser').then(({ startBrowserSimulator }) => startBrowserSimulator({ quiet: true }))
    starting.then(() => setReady(true))
  }, [])
  return ready ? children : null
}
