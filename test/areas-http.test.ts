import { afterAll, beforeAll, describe } from 'vitest'
import { describeAdminContract } from './contracts/admin.contract.js'
import { describeCoreContract } from './contracts/core.contract.js'
import { describeQuantumContract } from './contracts/quantum.contract.js'
import { describeGeneralContract } from './contracts/general.contract.js'
import { describeLedgerContract, describeLedgerSigningContract } from './contracts/ledger.contract.js'
import { type CliServer, startCli } from './support/cli-server.js'

// The area suites that also run in-process (src/areas/*/*.test.ts), here against
// the real CLI server, once per way the server reaches the handlers (the msw 3
// line, npm run test:msw3, runs only the msw one: the other modes skip msw).
for (const mode of process.env.MULTI_AREA_MOCK_TEST_DISPATCH?.split(',') ?? ['fast', 'msw']) {
  describe(`CLI server, --dispatch ${mode}`, () => {
    let server: CliServer
    beforeAll(async () => {
      server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet', '--dispatch', mode])
    })
    afterAll(async () => {
      await server?.stop()
    })

    describeAdminContract(() => server.url)
    describeCoreContract(() => server.url)
    describeQuantumContract(() => server.url)
    describeGeneralContract(() => server.url)
    describeLedgerContract(() => server.url)
  })
}

// Area E's signing modes need a server started with --signature-mode. Dispatch
// does not touch signatures, so one dispatch mode is enough here.
for (const mode of ['eip191', 'eip712'] as const) {
  describe(`CLI server, --signature-mode ${mode}`, () => {
    let server: CliServer
    beforeAll(async () => {
      server = await startCli(['--seed', '1', '--clock', '2026-01-01T00:00:00Z', '--quiet', '--signature-mode', mode])
    })
    afterAll(async () => {
      await server?.stop()
    })

    describeLedgerSigningContract(() => server.url, mode)
  })
}
