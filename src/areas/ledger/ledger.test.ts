import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe } from 'vitest'
import { describeLedgerContract, describeLedgerSigningContract } from '../../../test/contracts/ledger.contract.js'
import { createSimulator, type SimulatorOptions } from '../../index.js'

// The same suites run over HTTP against the CLI server in test/areas-http.test.ts.
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

/** One simulator per signature mode; its handlers serve the tests of the enclosing describe. */
function inProcess(options: SimulatorOptions): void {
  const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z', ...options })
  beforeAll(() => server.resetHandlers(...sim.handlers))
}

describe('signature mode format (default)', () => {
  inProcess({})
  describeLedgerContract(() => 'http://simulator.test')
})

for (const mode of ['eip191', 'eip712'] as const) {
  describe(`signature mode ${mode}`, () => {
    inProcess({ signatureMode: mode })
    describeLedgerSigningContract(() => 'http://simulator.test', mode)
  })
}
