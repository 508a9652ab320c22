/**
 * A scenario's `ledger.block_time` is a whole number of milliseconds, at
 * least 1, or a duration such as `"6s"`: the real CLI server refuses anything
 * else (a world made with that scenario, `POST /__mock/worlds`), and so does
 * the scenario schema editors and tools read (scenarios/scenario.schema.json,
 * `npm run schema`), so what the schema lets through loads.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsPlugin from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliServer, startCli } from './support/cli-server.js'

const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default
const schema = JSON.parse(readFileSync(new URL('../scenarios/scenario.schema.json', import.meta.url), 'utf8'))
const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats(ajv)
const validate = ajv.compile(schema)

let server: CliServer
beforeAll(async () => {
  server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet'])
})
afterAll(async () => {
  await server?.stop()
})

/** A new world on the server with a scenario of this block time: its status and body; the world is deleted again. */
async function createWorld(blockTime: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/__mock/worlds`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: { ledger: { block_time: blockTime } } }),
  })
  const body = await response.json()
  if (response.status === 201) await fetch(`${server.url}/__mock/worlds/${body.id}`, { method: 'DELETE' })
  return { status: response.status, body }
}

describe('a scenario block_time', () => {
  it.each([1.5, 'soon', 0, -6000, '-1s', '6 seconds', true])('%j is refused by the server and by the scenario schema', async (blockTime) => {
    const answer = await createWorld(blockTime)
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: 'validation_failed', details: [{ path: 'scenario.ledger.block_time' }] })
    expect(validate({ ledger: { block_time: blockTime } })).toBe(false)
  })

  it.each([2, 6000, '2s', '500ms', '1.5m', '250'])('%j is taken by the server and by the scenario schema', async (blockTime) => {
    const answer = await createWorld(blockTime)
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    expect(validate({ ledger: { block_time: blockTime } }), ajv.errorsText(validate.errors)).toBe(true)
  })
})
