import { setupServer } from 'msw/node'
import { afterAll, beforeAll } from 'vitest'
import { describeQuantumContract } from '../../../test/contracts/quantum.contract.js'
import { createSimulator } from '../../index.js'

// The same suite runs over HTTP against the CLI server in test/areas-http.test.ts.
const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
const server = setupServer(...sim.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

describeQuantumContract(() => 'http://simulator.test')
