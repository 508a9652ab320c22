import { createSimulator } from '../dist/src/index.js'
const journal = process.argv[2] !== 'nojournal'
const sim = await createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', ...(journal ? {} : { journal: { size: 0 } }) })
const list = JSON.parse((await (await sim.fetch(new Request('http://127.0.0.1:1/admin/api/v1.2/users?limit=1'))).text()))
const id = list[0].id
const origin = 'http://127.0.0.1:4000'
function fake(url) {
  const headers = { host: '127.0.0.1:4000', 'user-agent': 'wrk' }
  return { method: 'GET', url: origin + url, headers: { get: (n) => headers[n.toLowerCase()] ?? null, entries: () => Object.entries(headers) }, bodyText: '', readText: async () => '' }
}
for (const [name, url] of [['list', '/admin/api/v1.2/users'], ['one', `/admin/api/v1.2/users/${id}`]]) {
  for (let i = 0; i < 20000; i++) await sim.reply(fake(url))
  const rounds = []
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage(); const N = 50000
    for (let i = 0; i < N; i++) await sim.reply(fake(url))
    const c = process.cpuUsage(c0); rounds.push((c.user + c.system) / N)
  }
  rounds.sort((a, b) => a - b)
  console.log(name, journal ? 'journal' : 'nojournal', rounds.map((x) => x.toFixed(2)).join(' '), 'median', rounds[2].toFixed(2), 'µs')
}
