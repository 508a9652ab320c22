import { createSimulator } from '../dist/src/index.js'
const sim = await createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
const origin = 'http://127.0.0.1:4000'
const list = JSON.parse((await (await sim.fetch(new Request(origin + '/admin/api/v1.2/users?limit=1'))).text()))
let n = 0
function post() {
  const body = JSON.stringify({ username: `bench_${++n}`, email: `b${n}@example.com`, password: 'Passw0rd!' })
  const headers = { host: '127.0.0.1:4000', 'content-type': 'application/json', 'content-length': String(body.length) }
  let bodyText
  return { method: 'POST', url: origin + '/admin/api/v1.2/users', headers: { get: (k) => headers[k.toLowerCase()] ?? null, entries: () => Object.entries(headers) }, get bodyText() { return bodyText }, readText: async () => { await new Promise(setImmediate); bodyText = body; return body } }
}
function get() {
  const headers = { host: '127.0.0.1:4000' }
  return { method: 'GET', url: origin + '/admin/api/v1.2/users/' + list[0].id, headers: { get: (k) => headers[k.toLowerCase()] ?? null, entries: () => Object.entries(headers) }, bodyText: '', readText: async () => '' }
}
const conc = +process.argv[2] || 1
for (const [name, make] of [['get', get], ['post', post]]) {
  const rounds = []
  for (let r = 0; r < 6; r++) {
    const c0 = process.cpuUsage(); const N = 20000
    let next = 0
    const worker = async () => { while (next++ < N) { if (conc > 1) await new Promise(setImmediate); await sim.reply(make()) } }
    await Promise.all(Array.from({ length: conc }, worker))
    const c = process.cpuUsage(c0); if (r > 0) rounds.push((c.user + c.system) / N)
  }
  rounds.sort((a, b) => a - b); console.log(name, 'conc', conc, rounds.map((x) => x.toFixed(1)).join(' '))
}
