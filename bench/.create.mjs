import { createSimulator } from '../dist/src/index.js'
const sim = await createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', ...(process.argv[2] === 'nojournal' ? { journal: { size: 0 } } : {}) })
const origin = 'http://127.0.0.1:4000'
let n = 0
function fake() {
  const body = JSON.stringify({ username: `bench_${++n}`, email: `b${n}@example.com`, password: 'Passw0rd!' })
  const headers = { host: '127.0.0.1:4000', 'content-type': 'application/json', 'content-length': String(body.length) }
  return { method: 'POST', url: origin + '/admin/api/v1.2/users', headers: { get: (k) => headers[k.toLowerCase()] ?? null, entries: () => Object.entries(headers) }, get bodyText() { return body }, readText: async () => body }
}
for (let i = 0; i < 5000; i++) { const r = await sim.reply(fake()); if (i === 0) console.log(r.status, r.body.slice(0, 80)) }
const rounds = []
for (let r = 0; r < 5; r++) {
  const c0 = process.cpuUsage(); const N = 10000
  for (let i = 0; i < N; i++) await sim.reply(fake())
  const c = process.cpuUsage(c0); rounds.push((c.user + c.system) / N)
}
rounds.sort((a, b) => a - b); console.log('create', rounds.map((x) => x.toFixed(1)).join(' '))
