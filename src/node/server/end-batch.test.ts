import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { EndBatch } from './end-batch.js'
import { startServer } from './server.js'

/** A response that records its ends, in a shared log. */
function fakeResponse(name: string, log: string[], options: { destroyed?: boolean; failing?: boolean } = {}) {
  const res = {
    destroyed: options.destroyed ?? false,
    end(body?: string) {
      if (options.failing) throw new Error('write failed')
      log.push(`${name}:${body}`)
    },
    destroy() {
      res.destroyed = true
      log.push(`${name}:destroyed`)
    },
  }
  return res as typeof res & ServerResponse
}

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('EndBatch', () => {
  it('ends the answers of a turn after it, in the order they were given', async () => {
    const log: string[] = []
    const batch = new EndBatch()
    batch.end(fakeResponse('a', log), '1')
    batch.end(fakeResponse('b', log), '2')
    await Promise.resolve()
    expect(log).toEqual([])
    await turnEnd()
    expect(log).toEqual(['a:1', 'b:2'])
  })

  it('flush() ends them at once, and the end of the turn ends nothing twice', async () => {
    const log: string[] = []
    const batch = new EndBatch()
    batch.end(fakeResponse('a', log), '1')
    batch.flush()
    expect(log).toEqual(['a:1'])
    await turnEnd()
    expect(log).toEqual(['a:1'])
    batch.end(fakeResponse('b', log), '2')
    await turnEnd()
    expect(log).toEqual(['a:1', 'b:2'])
  })

  it('skips a response whose client has gone, and loses only the connection whose write fails', async () => {
    const log: string[] = []
    const batch = new EndBatch()
    batch.end(fakeResponse('gone', log, { destroyed: true }), '1')
    batch.end(fakeResponse('broken', log, { failing: true }), '2')
    batch.end(fakeResponse('fine', log), '3')
    await turnEnd()
    expect(log).toEqual(['broken:destroyed', 'fine:3'])
  })

  it('answers real clients whole: head written at once, body at the end of the turn', async () => {
    const batch = new EndBatch()
    const endedInHandler: boolean[] = []
    const server = createServer((req, res) => {
      const body = JSON.stringify({ path: req.url })
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      batch.end(res, body)
      endedInHandler.push(res.writableEnded)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const answers = await Promise.all(
        ['/a', '/b', '/c'].map(async (path) => {
          const response = await fetch(`http://127.0.0.1:${port}${path}`)
          return { status: response.status, body: await response.json() }
        }),
      )
      expect(answers).toEqual(['/a', '/b', '/c'].map((path) => ({ status: 200, body: { path } })))
      expect(endedInHandler).toEqual([false, false, false])
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('still answers while a test fakes timers (vi.useFakeTimers fakes setImmediate), and after', async () => {
    const running = await startServer({ port: 0, seed: 1 })
    try {
      vi.useFakeTimers()
      try {
        const faked = await fetch(`${running.url}/core/products/prod-1001`)
        expect(faked.status).toBe(200)
        expect(await faked.json()).toMatchObject({ id: 'prod-1001' })
      } finally {
        vi.useRealTimers()
      }
      const real = await fetch(`${running.url}/core/products/prod-1001`)
      expect(real.status).toBe(200)
    } finally {
      await running.close()
    }
  })
})
