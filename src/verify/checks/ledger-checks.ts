import { check } from '../check.js'
import type { CheckContext } from '../check-context.js'
import { Delegator, randomAddress, type VerifySignatureMode } from '../delegation-signer.js'
import { expectConforms, expectEqual, expectError } from '../expect.js'
import { setupBody } from '../setup.js'

const STATUS = 'GET /v1/status'
const TOKEN = 'GET /v1/tokens/{tokenId}'
const DELEGATE = 'POST /v1/stake/delegate'

const ledger = (ctx: CheckContext) => ctx.probe('ledger')

/** A throw-away delegator signing as the implementation checks (`--fixture signature-mode=`, default `format`). */
function delegator(ctx: CheckContext): Delegator {
  const mode = (ctx.optionalFixture('signature-mode') ?? 'format') as VerifySignatureMode
  const chainId = ctx.optionalFixture('chain-id')
  return new Delegator(mode, chainId === undefined ? undefined : Number(chainId))
}

/** Area E: network status, tokens, signed delegations (D21, D22, D23). */
export const ledgerChecks = [
  check({
    name: 'ledger.status',
    area: 'ledger',
    operation: STATUS,
    title: 'network status: 200, documented shape, a 0x + 64 hex block hash (D21)',
    writes: false,
    async run(ctx) {
      expectConforms(ctx, 'ledger', STATUS, await ledger(ctx).send('GET', '/v1/status'), 200)
    },
  }),
  check({
    name: 'ledger.token.read',
    area: 'ledger',
    operation: TOKEN,
    title: 'reads a token: 200, documented shape, total_supply a decimal string (D22)',
    writes: false,
    async run(ctx) {
      const id = ctx.fixture('token')
      const read = await ledger(ctx).send('GET', `/v1/tokens/${encodeURIComponent(id)}`)
      expectConforms(ctx, 'ledger', TOKEN, read, 200)
      expectEqual((read.json as { token_id?: unknown }).token_id, id, 'token_id')
    },
  }),
  check({
    name: 'ledger.token.unknown',
    area: 'ledger',
    operation: TOKEN,
    title: 'an unknown token is 404 not_found (D22)',
    writes: false,
    async run(ctx) {
      expectError(ctx, 'ledger', TOKEN, await ledger(ctx).send('GET', `/v1/tokens/${ctx.unique('missing')}`), 404, 'not_found')
    },
  }),
  check({
    name: 'ledger.delegate',
    area: 'ledger',
    operation: DELEGATE,
    title: 'a signed delegation: 202, documented shape, a 0x + 64 hex transaction hash (D10, D23)',
    writes: true,
    async run(ctx) {
      const validatorAddress = ctx.fixture('validator')
      const signer = delegator(ctx)
      const answer = await ledger(ctx).send('POST', '/v1/stake/delegate', { json: signer.sign({ delegatorAddress: signer.address, validatorAddress, amount: '1' }) })
      ctx.leaveBehind('delegations of 1 unit from throw-away delegators')
      expectConforms(ctx, 'ledger', DELEGATE, answer, 202)
    },
  }),
  check({
    name: 'ledger.delegate.replay-refused',
    area: 'ledger',
    operation: DELEGATE,
    title: 'the same signature sent again is 409 conflict (no replay, D23)',
    writes: true,
    async run(ctx) {
      const validatorAddress = ctx.fixture('validator')
      const signer = delegator(ctx)
      const body = signer.sign({ delegatorAddress: signer.address, validatorAddress, amount: '1' })
      setupBody(await ledger(ctx).send('POST', '/v1/stake/delegate', { json: body }), 'delegate once')
      ctx.leaveBehind('delegations of 1 unit from throw-away delegators')
      expectError(ctx, 'ledger', DELEGATE, await ledger(ctx).send('POST', '/v1/stake/delegate', { json: body }), 409, 'conflict')
    },
  }),
  check({
    name: 'ledger.delegate.validation',
    area: 'ledger',
    operation: DELEGATE,
    title: 'a bad address, amount 0, an unsafe JSON number or a short signature is 400 (D23)',
    writes: true,
    async run(ctx) {
      const signer = delegator(ctx)
      const validatorAddress = ctx.optionalFixture('validator') ?? randomAddress()
      const good = signer.sign({ delegatorAddress: signer.address, validatorAddress, amount: '1' })
      const bodies = [
        JSON.stringify({ ...good, delegatorAddress: '0x1234' }),
        JSON.stringify({ ...good, amount: '0' }),
        JSON.stringify({ ...good, signature: '0xdeadbeef' }),
        // 2^53 + 1 as a JSON number: precision would be lost, so it is refused.
        JSON.stringify({ ...good, amount: 0 }).replace('"amount":0', '"amount":9007199254740993'),
      ]
      for (const body of bodies) expectError(ctx, 'ledger', DELEGATE, await ledger(ctx).send('POST', '/v1/stake/delegate', { body }), 400, 'validation_failed')
    },
  }),
  check({
    name: 'ledger.delegate.unknown-validator',
    area: 'ledger',
    operation: DELEGATE,
    title: 'a validator that does not exist is 404 not_found (D23)',
    writes: true,
    async run(ctx) {
      const signer = delegator(ctx)
      const body = signer.sign({ delegatorAddress: signer.address, validatorAddress: randomAddress(), amount: '1' })
      expectError(ctx, 'ledger', DELEGATE, await ledger(ctx).send('POST', '/v1/stake/delegate', { json: body }), 404, 'not_found')
    },
  }),
]
