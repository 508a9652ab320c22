import { setupServer } from 'msw/node'
import { afterAll, beforeAll } from 'vitest'
import { describeControlContract } from '../../../test/contracts/control.contract.js'
import { createSimulator } from '../create-simulator.js'

// The same suite runs over HTTP against the CLI server in test/control-http.test.ts.
const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
const server = setupServer(...sim.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

describeControlContract(() => 'http://simulator.test')
