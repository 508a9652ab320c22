/**
 * Names a client or the command line gives are looked up as own names only:
 * `__proto__`, `constructor` and the other names every plain object inherits
 * are unknown, with the usual 400 / 404 / one-line CLI error, never a world
 * made from `Object.prototype` or a 500. Runs the real CLI (`npm run bundle-cli` first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, runCli, startCli } from './support/cli-server.js'
import { call } from './support/http.js'

const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']
const KNOWN = 'default, empty, pending-users, entangled-pairs'

describe('inherited names over HTTP', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--quiet', '--clock', '2026-01-01T00:00:00Z'])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it.each(INHERITED)('POST /__mock/worlds {"scenario": %j} is 400 unknown scenario, and no world is made', async (name) => {
    const reply = await call(`${server.url}/__mock/worlds`, { method: 'POST', json: { scenario: name } })
    expect(reply.status).toBe(400)
    const message = `Unknown scenario "${name}". Available: ${KNOWN}.`
    expect(reply.body).toEqual({ error: 'validation_failed', message, details: [{ path: 'scenario', message }] })
    expect((await call(`${server.url}/__mock/worlds`)).body.worlds).toEqual([])
  })

  it.each(INHERITED)('POST /__mock/scenarios/%s is 404 listing the known scenarios', async (name) => {
    const reply = await call(`${server.url}/__mock/scenarios/${name}`, { method: 'POST' })
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({ error: 'not_found', available: KNOWN.split(', ') })
  })

  it.each(INHERITED)('GET /__mock/docs/%s and /__mock/ui/… are 404 "no file", not a 500 or a missing build', async (name) => {
    for (const page of ['docs', 'ui']) {
      const response = await fetch(`${server.url}/__mock/${page}/${name}`)
      expect(response.status, page).toBe(404)
      const body = (await response.json()) as { error: string; message: string }
      expect(body.error).toBe('not_found')
      expect(body.message).toMatch(new RegExp(`^No file "${name}" on the (docs|inspector) page`))
    }
  })
})

describe('inherited names on the command line', () => {
  it.each(INHERITED)('serve --scenario %s stops with one line naming the known scenarios', async (name) => {
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--scenario', name])
    expect(code).not.toBe(0)
    expect(stdout).not.toContain('listening on')
    expect(stderr.trim().split('\n')).toEqual([`multi-area-mock: Unknown scenario "${name}". Available: ${KNOWN}.`])
  })
})
