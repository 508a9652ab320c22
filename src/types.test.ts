import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as z from 'zod'
import {
  type AdminCreateUserRequest,
  type AdminCreateUserResponse,
  type AdminDeleteUserRequest,
  type AdminDeleteUserResponse,
  type AdminGetUserResponse,
  type AdminListUsersRequest,
  type AdminListUsersResponse,
  type ControlAddFaultRequest,
  type ControlClearFaultsResponse,
  type ControlGetHealthResponse,
  type ControlGetOpenApiRequest,
  type ControlGetWorldRequest,
  type ControlMoveClockRequest,
  type ControlMoveClockResponse,
  type ControlStreamEventsResponse,
  type CoreGetProductResponse,
  type CoreIngestDataRequest,
  type CoreIngestDataResponse,
  type CoreListUsersRequest,
  type CoreUpdateProductRequest,
  createSimulator,
  type GeneralGetDataRequest,
  type GeneralLoginResponse,
  type GeneralUpdateResourceRequest,
  type LedgerDelegateStakeRequest,
  type LedgerGetStatusRequest,
  type LedgerGetTokenResponse,
  type PublicAccount,
  type QuantumEntangleRequest,
  type QuantumGetParticleRequest,
  type QuantumGetParticleResponse,
  type QuantumMeasureRequest,
  type QuantumMeasureResponse,
  type SimulatorDb,
} from './index.js'
import { empty, json } from './kernel/http/json/json-response.js'
import { defineRoute, jsonBody, rawJsonBody, type RouteDefinition } from './kernel/routing/route.js'
import type { OperationsOf, RequestOf, ResponseOf } from './kernel/schema/operation-types.js'

/**
 * The exported request and response types are inferred from the routes
 * (`defineRoute` keeps each route's schemas in its type, `OperationsOf` reads a
 * route table). These tests hold the types to what a user writes, and the
 * package's exports to the operations the simulator serves. `npm run
 * typecheck` checks the `expectTypeOf` lines: a type that changes, or a
 * `@ts-expect-error` that no longer errors, fails it.
 */
describe('operation types', () => {
  it('are inferred from a route table: only routes with an operation id, bodies unwrapped, 204 without a body', () => {
    const table = [
      defineRoute({
        method: 'GET',
        path: '/things/{id}',
        operationId: 'getThing',
        summary: 'Read a thing',
        params: z.object({ id: z.string() }),
        query: z.object({ limit: z.string().transform(Number).optional() }),
        responses: { 200: { body: z.object({ id: z.string(), size: z.number().default(0) }) } },
        handle({ params, query }) {
          // `handle` still gets the schemas' output.
          expectTypeOf(params.id).toEqualTypeOf<string>()
          expectTypeOf(query.limit).toEqualTypeOf<number | undefined>()
          return json({ id: params.id })
        },
      }),
      defineRoute({
        method: 'PUT',
        path: '/things',
        operationId: 'replaceThings',
        summary: 'Replace every thing',
        body: jsonBody(z.array(z.object({ id: z.string() })), { limit: 1024 }),
        responses: { 204: { description: 'Replaced.' } },
        handle: () => empty(204),
      }),
      defineRoute({
        method: 'POST',
        path: '/things',
        operationId: 'addThings',
        summary: 'Add things, checked by the handler',
        body: rawJsonBody(z.object({ count: z.int().default(1) })),
        responses: { 201: { body: z.object({ added: z.int() }) } },
        handle({ body }) {
          expectTypeOf(body).toBeUnknown()
          return json({ added: 1 }, 201)
        },
      }),
      defineRoute({ method: 'GET', path: '/internal', summary: 'Not an operation', handle: () => empty(204) }),
    ]
    type Ops = OperationsOf<typeof table>

    expectTypeOf<keyof Ops>().toEqualTypeOf<'getThing' | 'replaceThings' | 'addThings'>()
    expectTypeOf<RequestOf<Ops['getThing']>>().toEqualTypeOf<{ params: { id: string }; query: { limit?: string | undefined } }>()
    expectTypeOf<ResponseOf<Ops['getThing']>>().toEqualTypeOf<{ id: string; size: number }>()
    expectTypeOf<RequestOf<Ops['replaceThings']>>().toEqualTypeOf<{ body: Array<{ id: string }> }>()
    expectTypeOf<ResponseOf<Ops['replaceThings']>>().toEqualTypeOf<undefined>()
    expectTypeOf<RequestOf<Ops['addThings']>>().toEqualTypeOf<{ body: { count?: number | undefined } }>()
    // The typed routes are still plain routes to the dispatcher and the document.
    const routes: readonly RouteDefinition[] = table
    expect(routes.map((route) => route.operationId)).toEqual(['getThing', 'replaceThings', 'addThings', undefined])
  })

  it('type requests as a client sends them: body, query and path, only the parts an operation takes', () => {
    expectTypeOf<AdminCreateUserRequest>().toEqualTypeOf<{ body: { username: string; email: string; password: string } }>()
    expectTypeOf<AdminListUsersRequest['query']>().toEqualTypeOf<{
      page?: string | undefined
      limit?: string | undefined
      status?: 'active' | 'inactive' | 'pending' | undefined
    }>()
    expectTypeOf<AdminDeleteUserRequest>().toEqualTypeOf<{ params: { userId: string } }>()
    expectTypeOf<CoreListUsersRequest['query']>().toEqualTypeOf<{ limit?: string | undefined; offset?: string | undefined }>()
    expectTypeOf<CoreUpdateProductRequest['body']['price']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<CoreIngestDataRequest['body']>().toEqualTypeOf<Array<{ timestamp: string; value: number; sensor_id: string }>>()
    expectTypeOf<QuantumEntangleRequest['body']['particle_type']>().toEqualTypeOf<'photon' | 'electron' | 'positron' | 'proton' | 'neutron'>()
    expectTypeOf<QuantumGetParticleRequest>().toEqualTypeOf<{ params: { particle_id: string } }>()
    expectTypeOf<GeneralGetDataRequest>().toEqualTypeOf<{ params: { resource_id: string }; query: { fields?: string | undefined } }>()
    expectTypeOf<GeneralUpdateResourceRequest['body']>().toEqualTypeOf<{ data: Record<string, unknown> }>()
    expectTypeOf<LedgerDelegateStakeRequest['body']['amount']>().toEqualTypeOf<string | number>()
    expectTypeOf<LedgerGetStatusRequest>().toEqualTypeOf<{}>()
    expectTypeOf<ControlMoveClockRequest['body']['advance']>().toEqualTypeOf<string | number | undefined>()
    expectTypeOf<ControlAddFaultRequest['body']['latency']>().toEqualTypeOf<number | [number, number] | undefined>()
    expectTypeOf<ControlGetWorldRequest>().toEqualTypeOf<{ params: { worldId: string } }>()
    // @ts-expect-error: a create body has no `status`
    const body: AdminCreateUserRequest['body'] = { username: 'ada', email: 'ada@example.com', password: 'analytical', status: 'active' }
    expect(body.username).toBe('ada')
  })

  it('type every enumerated value as its literals, never `string`: a typo is a type error', () => {
    type Axis = 'x-axis' | 'y-axis' | 'z-axis' | `${number}deg`
    expectTypeOf<QuantumMeasureRequest['body']['measurement_axis']>().toEqualTypeOf<Axis | undefined>()
    expectTypeOf<QuantumMeasureResponse['measurement_axis']>().toEqualTypeOf<Axis>()
    expectTypeOf<QuantumMeasureResponse['correlated_axis']>().toEqualTypeOf<Axis>()
    expectTypeOf<QuantumGetParticleResponse['measurement_axis']>().toEqualTypeOf<Axis | null>()
    expectTypeOf<QuantumGetParticleResponse['state']>().toEqualTypeOf<'superposition' | 'spin_up' | 'spin_down' | 'horizontal' | 'vertical'>()
    expectTypeOf<NonNullable<SimulatorDb['particles']>>().not.toBeAny()
    expectTypeOf<ControlGetHealthResponse['areas'][number]['id']>().toEqualTypeOf<'admin' | 'core' | 'quantum' | 'general' | 'ledger'>()
    expectTypeOf<ControlGetOpenApiRequest['query']['area']>().toEqualTypeOf<'admin' | 'core' | 'quantum' | 'general' | 'ledger' | undefined>()
    const measure: QuantumMeasureRequest['body'] = { particle_id: 'qp_1', measurement_axis: '22.5deg' }
    // @ts-expect-error: `w-axis` is no axis (issue 32: a typed client accepted it)
    const typo: QuantumMeasureRequest['body'] = { particle_id: 'qp_1', measurement_axis: 'w-axis' }
    // @ts-expect-error: an angle is written with `deg`
    const unitless: QuantumMeasureRequest['body'] = { particle_id: 'qp_1', measurement_axis: '22.5' }
    // @ts-expect-error: not an area
    const area: ControlGetOpenApiRequest['query'] = { area: 'billing' }
    expect([measure, typo, unitless, area].length).toBe(4)
  })

  it('type a success answer as the simulator sends it; undefined for a 204', () => {
    expectTypeOf<AdminCreateUserResponse>().toEqualTypeOf<AdminGetUserResponse>()
    expectTypeOf<AdminListUsersResponse>().toEqualTypeOf<Array<{ id: string; username: string; email: string; status: 'active' | 'inactive' | 'pending'; created_at: string }>>()
    expectTypeOf<AdminGetUserResponse['last_login']>().toEqualTypeOf<string | null>()
    expectTypeOf<AdminDeleteUserResponse>().toEqualTypeOf<undefined>()
    expectTypeOf<CoreGetProductResponse>().toEqualTypeOf<{ id: string; name: string; description: string; price: number; stock: number }>()
    expectTypeOf<CoreIngestDataResponse['records_processed']>().toEqualTypeOf<number>()
    expectTypeOf<QuantumMeasureResponse['partner_collapsed']>().toEqualTypeOf<boolean>()
    expectTypeOf<GeneralLoginResponse['token_type']>().toEqualTypeOf<'Bearer'>()
    expectTypeOf<LedgerGetTokenResponse['total_supply']>().toEqualTypeOf<string>()
    expectTypeOf<ControlMoveClockResponse>().toEqualTypeOf<{ now: string; fixed: boolean }>()
    expectTypeOf<ControlClearFaultsResponse>().toEqualTypeOf<undefined>()
    expectTypeOf<ControlStreamEventsResponse>().toEqualTypeOf<string>()
    const detail = { id: 'u1' } as AdminGetUserResponse
    // @ts-expect-error: a user answer never carries the password hash
    expect(detail.password_hash).toBeUndefined()
  })

  it('are exported from the package root for every operation the simulator documents, and for no other', async () => {
    const doc = await createSimulator({ scenario: 'empty' }).openapi()
    const expected = Object.values(doc.paths)
      .flatMap((item) => Object.values(item as Record<string, { operationId?: string }>))
      .flatMap(({ operationId }) => (operationId ? [`${capitalise(operationId)}Request`, `${capitalise(operationId)}Response`] : []))
    const operationTypes = rootTypeExports().filter((name) => /^(Admin|Core|Quantum|General|Ledger|Control)[A-Z]\w*(Request|Response)$/.test(name))
    expect(expected.length).toBeGreaterThan(80)
    expect(operationTypes.sort()).toEqual(expected.sort())
  }, 60_000)

  it('type sim.db per collection, and users without the password hash', async () => {
    const sim = createSimulator({ scenario: 'empty' })
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

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * The type aliases the package root (`src/index.ts`) exports, as the
 * TypeScript compiler reads them for a consumer: type exports cannot be listed
 * at run time, and a missing one is what this test is for.
 */
function rootTypeExports(): string[] {
  const entry = fileURLToPath(new URL('./index.ts', import.meta.url))
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  return checker
    .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!)
    .filter((symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags & ts.SymbolFlags.TypeAlias)
    .map((symbol) => symbol.name)
}
