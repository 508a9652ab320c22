// @ts-check
// The node:http client the soak and ingestion benches drive a server with: one request at a time per kept-alive connection, errors counted rather than thrown.

import { request } from 'node:http'

/**
 * An answer: status (0 when the request failed: the error is then the body), the body parsed as JSON where it is, its length, and the milliseconds it took.
 *
 * @typedef {{ status: number, body: any, bytes: number, ms: number }} Reply
 */

/**
 * One request to 127.0.0.1:`port` over `agent`; never rejects.
 *
 * @example
 * const reply = await send(agent, port, 'POST', '/core/ingest/data', '[]', { timeoutMs: 120_000 })
 * @param {import('node:http').Agent} agent
 * @param {number | string} port
 * @param {string} method
 * @param {string} path
 * @param {string | undefined} text the JSON body, if any
 * @param {{ headers?: Record<string, string>, timeoutMs: number }} options
 * @returns {Promise<Reply>}
 */
export function send(agent, port, method, path, text, { headers = {}, timeoutMs }) {
  const all = { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }) }
  return new Promise((resolve) => {
    const started = performance.now()
    const failed = (/** @type {unknown} */ error) => resolve({ status: 0, body: String(error), bytes: 0, ms: performance.now() - started })
    const outgoing = request({ agent, host: '127.0.0.1', port, method, path, headers: all, timeout: timeoutMs }, (incoming) => {
      /** @type {Buffer[]} */
      const chunks = []
      incoming.on('data', (chunk) => chunks.push(chunk))
      incoming.on('end', () => {
        const data = Buffer.concat(chunks).toString('utf8')
        let parsed = data
        try {
          parsed = data === '' ? null : JSON.parse(data)
        } catch {}
        resolve({ status: incoming.statusCode ?? 0, body: parsed, bytes: data.length, ms: performance.now() - started })
      })
      incoming.on('error', failed)
    })
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')))
    outgoing.on('error', failed)
    outgoing.end(text)
  })
}
