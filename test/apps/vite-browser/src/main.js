// src/main.js
// In development only: in a production build import.meta.env.DEV is false, and Vite
// leaves the block out, the simulator and msw with it.
if (import.meta.env.DEV) {
  const { startBrowserSimulator } = await import('multi-area-mock/browser')
  await startBrowserSimulator({ quiet: true })
}

// The app, unchanged: in development the service worker answers this request.
const [user] = await (await fetch('/admin/api/v1.2/users?limit=1')).json()
document.querySelector('#username').textContent = user.username
