// @ts-check
// wrk, the bench's load generator: a Lua script per run (fixed request, counter-made bodies or pre-signed ones), the child process, and its figures parsed.

import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { spawnTracked } from './processes.js'
import { scratchPath } from './scratch.js'

/**
 * @typedef {object} HttpRequest
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} [headers]
 * @property {string} [body]
 */
/**
 * What a run sends: a fixed request, or one body per request made from a template
 * (`{n}`: the request counter in decimal, `{hex}`: in 64 hex digits) or read from
 * a file of pre-signed bodies, one a line, from line `signedOffset + 1` on.
 *
 * @typedef {object} WrkLoad
 * @property {HttpRequest} request
 * @property {string} [template]
 * @property {string} [signedFile]
 * @property {number} [signedOffset]
 */
/**
 * One run's figures: req/s, latency in ms, counts of 2xx, non-2xx, connection errors and timeouts.
 *
 * @typedef {{ rps: number, total: number, ok: number, non2xx: number, errors: number, timeouts: number, p50: number, p99: number, max: number }} LoadFigures
 */

/** Whether wrk is installed (Debian package `wrk`). */
export function wrkInstalled() {
  return !spawnSync('wrk', ['-v']).error
}

/**
 * A Lua string literal (bodies are ASCII JSON, so JSON's escapes are Lua's).
 *
 * @param {string} text
 */
function lua(text) {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`bench: non-ASCII text in a wrk script: ${text.slice(0, 80)}`)
  return JSON.stringify(text)
}

/**
 * The wrk script of a load; `done` prints the figures as one JSON line.
 *
 * @param {WrkLoad} load
 */
export function wrkScript({ request, template, signedFile, signedOffset = 0 }) {
  const { method, path, headers = {}, body } = request
  const lines = [`wrk.method = ${lua(method)}`, `wrk.path = ${lua(path)}`]
  for (const [name, value] of Object.entries(headers)) lines.push(`wrk.headers[${lua(name)}] = ${lua(value)}`)
  if (body !== undefined) lines.push(`wrk.body = ${lua(body)}`)
  if (template !== undefined) {
    lines.push('local n = 0', `local template = ${lua(template)}`)
    lines.push(
      'request = function()',
      '  n = n + 1',
      '  local body = template:gsub("{n}", tostring(n)):gsub("{hex}", string.format("%064x", n))',
      '  return wrk.format(nil, nil, nil, body)',
      'end',
    )
  } else if (signedFile !== undefined) {
    lines.push('local bodies = {}', `for line in io.lines(${lua(signedFile)}) do bodies[#bodies + 1] = line end`, `local i = ${signedOffset}`)
    lines.push('request = function()', '  i = i + 1', '  return wrk.format(nil, nil, nil, bodies[((i - 1) % #bodies) + 1])', 'end')
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("BENCH_JSON {\\"requests\\":%d,\\"duration\\":%d,\\"connect\\":%d,\\"read\\":%d,\\"write\\":%d,\\"status\\":%d,\\"timeout\\":%d,\\"p50\\":%d,\\"p99\\":%d,\\"max\\":%d}\\n",',
    '    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(99), latency.max))',
    'end',
  )
  return `${lines.join('\n')}\n`
}

/**
 * One wrk run (`wrk -t1 -cN -dSs --timeout 10s`) against `url`; rejects when wrk fails.
 *
 * @example
 * const figures = await runWrk(url, { request: { method: 'GET', path: '/admin/api/v1.2/users' } }, 10, 50, 'list')
 * @param {string} url
 * @param {WrkLoad} load
 * @param {number} seconds
 * @param {number} connections
 * @param {string} label names the script file and the error
 * @returns {Promise<LoadFigures>}
 */
export async function runWrk(url, load, seconds, connections, label) {
  const script = scratchPath(`${label.replace(/\W+/g, '-')}.lua`)
  writeFileSync(script, wrkScript(load))
  const { output, closed } = spawnTracked('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url])
  const code = await closed
  const line = /BENCH_JSON (\{.*\})/.exec(output.out)
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}) on ${label}:\n${output.out}\n${output.err}`)
  const figures = JSON.parse(line[1])
  return {
    rps: figures.requests / (figures.duration / 1e6),
    total: figures.requests,
    ok: figures.requests - figures.status,
    non2xx: figures.status,
    errors: figures.connect + figures.read + figures.write,
    timeouts: figures.timeout,
    p50: figures.p50 / 1000,
    p99: figures.p99 / 1000,
    max: figures.max / 1000,
  }
}
