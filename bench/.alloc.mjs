import { createSimulator } from '../dist/src/index.js'
const sim = await createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
const list = JSON.parse((await (await sim.fetch(new Request('http://127.0.0.1:1/admin/api/v1.2/users?limit=1'))).text()))
const id = list[0].id
const origin = 'http://127.0.0.1:4000'
const reqHeaders = { host: '127.0.0.1:4000' }
function fake(url) {
  return { method: 'GET', url: origin + url, headers: { get: (n) => reqHeaders[n.toLowerCase()] ?? null, entries: () => Object.entries(reqHeaders) }, bodyText: '', readText: async () => '' }
}
const url = process.argv[2] === 'one' ? `/admin/api/v1.2/users/${id}` : '/admin/api/v1.2/users'
for (let i = 0; i < 20000; i++) await sim.reply(fake(url))
console.log('START')
for (let i = 0; i < 100000; i++) await sim.reply(fake(url))
console.log('END')
