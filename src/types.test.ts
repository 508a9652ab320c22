import { bodySpec } from './kernel/routing/route.js'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type * as z from 'zod'
import {
  type AdminCreateUserRequest,
  type AdminCreateUserResponse,
  type AdminDeleteUserResponse,
  type AdminGetUserResponse,
  type AdminListUsersRequest,
  type ControlAddFaultRequest,
  type ControlMoveClockRequest,
  type CoreGetProductResponse,
  type CoreIngestDataRequest,
  type CoreUpdateProductRequest,
  createSimulator,
  type GeneralGetDataRequest,
  type GeneralLoginResponse,
  type LedgerDelegateStakeRequest,
  type PublicAccount,
  type QuantumMeasureResponse,
  type SimulatorDb,
} from './index.js'
import { adminOperations } from './areas/admin/index.js'
import { coreOperations } from './areas/core/index.js'
import { generalOperations } from './areas/general/index.js'
import { ledgerOperations } from './areas/ledger/index.js'
import { quantumOperations } from './areas/quantum/index.js'
import { toJsonSchema } from './kernel/openapi/json-schema.js'
import type { OperationSchemas } from './kernel/schema/operation-types.js'
import { controlOperations } from './simulator/control-operations.js'

/**
 * The exported request and response types are inferred from each area's
 * operation map; these tests hold the map to the routes (the same schemas the
 * server validates with and the document shows) and the types to what a user
 * writes. `npm run typecheck` checks this file: a `@ts-expect-error` that no
 * longer errors fails it.
 */
const maps: Record<string, Record<string, OperationSchemas>> = {
  admin: adminOperations,
  core: coreOperations,
  quantum: quantumOperations,
  general: generalOperations,
  ledger: ledgerOperations,
  control: controlOperations,
}

describe('operation types', () => {
  const sim = createSimulator({ scenario: 'empty' })
  const json = (schema: z.ZodType | undefined, io: 'input' | 'output') => (schema ? JSON.stringify(toJsonSchema(schema, io)) : undefined)

  it.each(Object.keys(maps))('cover every %s operation with the schemas its route uses', (area) => {
    const mount = sim.dispatcher.mounts.find((candidate) => candidate.area === area)!
    const routes = new Map(mount.routes.map((route) => [route.operationId!, route]))
    expect(Object.keys(maps[area]!).sort()).toEqual([...routes.keys()].sort())
    for (const [id, schemas] of Object.entries(maps[area]!)) {
      const route = routes.get(id)!
      const success = Object.values(route.responses ?? {})[0]
      expect(json(schemas.body, 'input'), `${area} ${id} body`).toBe(json(route.body && bodySpec(route.body).schema, 'input'))
      expect(json(schemas.query, 'output'), `${area} ${id} query`).toBe(json(route.query, 'output'))
      expect(json(schemas.params, 'output'), `${area} ${id} params`).toBe(json(route.params, 'output'))
      expect(json(schemas.response, 'output'), `${area} ${id} response`).toBe(json(success?.body, 'output'))
    }
  })

  it('type a request body, query and path as a client sends them', () => {
    expectTypeOf<AdminCreateUserRequest>().toEqualTypeOf<{ body: { username: string; email: string; password: string } }>()
    expectTypeOf<AdminListUsersRequest['query']>().toEqualTypeOf<{ page?: string | undefined; limit?: string | undefined; status?: 'active' | 'inactive' | 'pending' | undefined }>()
    expectTypeOf<GeneralGetDataRequest>().toEqualTypeOf<{ params: { resource_id: string }; query: { fields?: string | undefined } }>()
    expectTypeOf<CoreUpdateProductRequest['body']['price']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<CoreIngestDataRequest['body']>().toEqualTypeOf<Array<{ timestamp: string; value: number; sensor_id: string }>>()
    expectTypeOf<LedgerDelegateStakeRequest['body']['amount']>().toEqualTypeOf<string | number>()
    expectTypeOf<ControlMoveClockRequest['body']['advance']>().toEqualTypeOf<string | number | undefined>()
    expectTypeOf<ControlAddFaultRequest['body']['latency']>().toEqualTypeOf<number | [number, number] | undefined>()
    // @ts-expect-error: a create body has no `status`
    const body: AdminCreateUserRequest['body'] = { username: 'ada', email: 'ada@example.com', password: 'analytical', status: 'active' }
    expect(body.username).toBe('ada')
  })

  it('type a success answer as the simulator sends it', () => {
    expectTypeOf<AdminCreateUserResponse>().toEqualTypeOf<AdminGetUserResponse>()
    expectTypeOf<AdminGetUserResponse['last_login']>().toEqualTypeOf<string | null>()
    expectTypeOf<AdminGetUserResponse['status']>().toEqualTypeOf<'active' | 'inactive' | 'pending'>()
    expectTypeOf<AdminDeleteUserResponse>().toEqualTypeOf<undefined>()
    expectTypeOf<CoreGetProductResponse>().toEqualTypeOf<{ id: string; name: string; description: string; price: number; stock: number }>()
    expectTypeOf<GeneralLoginResponse['token_type']>().toEqualTypeOf<'Bearer'>()
    expectTypeOf<QuantumMeasureResponse['partner_collapsed']>().toEqualTypeOf<boolean>()
    const detail = { id: 'u1' } as AdminGetUserResponse
    // @ts-expect-error: a user answer never carries the password hash
    expect(detail.password_hash).toBeUndefined()
  })

  it('type sim.db per collection, and users without the password hash', async () => {
    await sim.loadScenario('default')
    const product = sim.db.products!.findFirst((query) => query.where({ id: 'prod-1001' }))!
    expectTypeOf(product.price).toEqualTypeOf<number>()
    expect(product.price).toBe(89.99)
    expectTypeOf<NonNullable<SimulatorDb['particles']>>().not.toBeAny()
    expectTypeOf(sim.db.delegations!.findFirst()!.block_height).toEqualTypeOf<number>()
    expectTypeOf(sim.db.resources!.findFirst()!.data).toEqualTypeOf<Record<string, unknown>>()
    const user = sim.db.users.findFirst()!
    expectTypeOf(user).toEqualTypeOf<PublicAccount>()
    // @ts-expect-error: `sim.db.users` shows no password hash
    expect(user.password_hash).toBeUndefined()
    expect(Object.keys(user)).not.toContain('password_hash')
  })
})
