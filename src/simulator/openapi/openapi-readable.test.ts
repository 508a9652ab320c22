import { describe, expect, it } from 'vitest'
import { createSimulator } from '../create-simulator.js'

const METHODS = ['get', 'put', 'post', 'delete', 'patch']

/**
 * Error responses no recorded example can show: they need an isolated world
 * at its limits, a taken world id, a signature mode other than the default,
 * or a replicas' store that is down (`serve --store`).
 */
const WITHOUT_EXAMPLE = new Set([
  'controlLoadScenario 409',
  'controlLoadScenario 413',
  'controlReplaceState 409',
  'controlCreateWorld 409',
  // A history long enough to need a second request, or worlds rebuilt past the budget: no example request makes one in a fresh world.
  'controlGetHistoryPoint 409',
  'controlGetHistoryPoint 503',
  'ledgerDelegateStake 401',
  'ledgerDelegateStake 409',
  'controlGetHealth 503',
  'controlListRequests 503',
  'controlClearRequests 503',
])

/** The document as people and tools read it (issue 32: short summaries, stated rules, shared components, declared security). */
describe('the OpenAPI document, as people read it', async () => {
  const sim = createSimulator({ scenario: 'empty' })
  const doc = (await sim.openapi()) as any
  const operations = Object.values<any>(doc.paths).flatMap((item) => METHODS.filter((method) => item[method]).map((method) => item[method]))
  const resolve = (node: any) => (node.$ref ? doc.components.responses[node.$ref.split('/').pop()] : node)

  it('gives every operation a one-line summary, a description, one declared tag and its security', () => {
    const tags = new Set(doc.tags.map((tag: any) => tag.name))
    for (const operation of operations) {
      const id = operation.operationId
      expect(operation.summary.length, id).toBeLessThanOrEqual(60)
      expect(operation.summary, id).not.toMatch(/[{}|\n]|\(D\d+/)
      expect(operation.description?.length ?? 0, id).toBeGreaterThan(40)
      expect(operation.tags, id).toHaveLength(1)
      expect(tags.has(operation.tags[0]), id).toBe(true)
      expect(Array.isArray(operation.security), id).toBe(true)
    }
    expect([...tags]).toEqual(['admin', 'core', 'quantum', 'general', 'ledger', 'control'])
    expect(new Set(operations.map((operation) => operation.summary)).size).toBeGreaterThan(operations.length - 3)
  })

  it('declares who may call what: nothing on the areas but the Bearer resource update, the optional control token on the control API', () => {
    const security = (path: string, method: string) => doc.paths[path][method].security
    expect(security('/general/resources/{id}', 'put')).toEqual([{ bearerAuth: [] }])
    expect(security('/general/auth/login', 'post')).toEqual([])
    expect(security('/ledger/v1/stake/delegate', 'post')).toEqual([])
    expect(security('/__mock/reset', 'post')).toEqual([{ controlToken: [] }, {}])
    // The document itself is never behind the token, so a generator can always read it.
    expect(security('/__mock/openapi.json', 'get')).toEqual([])
    expect(doc.paths['/__mock/openapi.json'].get.responses).not.toHaveProperty('401')
    const areaOperations = operations.filter((operation) => operation.tags[0] !== 'control')
    expect(areaOperations.filter((operation) => operation.security.length > 0).map((operation) => operation.operationId)).toEqual(['generalUpdateResource'])
    expect(doc.components.securitySchemes.controlToken).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' })
  })

  it('lets every area operation answer an injected fault of any error status, and no control operation', () => {
    for (const operation of operations) {
      const ranges = ['4XX', '5XX'].filter((range) => range in operation.responses)
      expect(ranges, operation.operationId).toEqual(operation.tags[0] === 'control' ? [] : ['4XX', '5XX'])
    }
  })

  it('shows an example of every error response', () => {
    const missing: string[] = []
    for (const operation of operations) {
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (Number(status[0]) < 4) continue
        if (!resolve(response).content['application/json'].examples) missing.push(`${operation.operationId} ${status}`)
      }
    }
    expect(missing.filter((entry) => !WITHOUT_EXAMPLE.has(entry))).toEqual([])
    // Each exception still holds: once one gets an example, it leaves the list.
    expect(missing.sort()).toEqual([...WITHOUT_EXAMPLE].sort())
  })

  it('writes each shared schema once, as a component: instants, amounts, the world state, error bodies', () => {
    const text = JSON.stringify(doc)
    const patterns = new Map<string, number>()
    for (const match of text.matchAll(/"pattern":("(?:[^"\\]|\\.)*")/g)) patterns.set(match[1]!, (patterns.get(match[1]!) ?? 0) + 1)
    const repeated = [...patterns].filter(([pattern, count]) => pattern.length > 200 && count > 1)
    expect(repeated.map(([pattern, count]) => `${count}x ${pattern.slice(0, 60)}`)).toEqual([])
    for (const name of ['Instant', 'Uint256', 'PositiveUint256', 'WorldState', 'ErrorBody', 'NotFoundError', 'InjectedFault'])
      expect(doc.components.schemas, name).toHaveProperty(name)
    expect(doc.paths['/__mock/state'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WorldState' })
    // Names stay short: no generated path-like names for client generators to turn into files.
    for (const name of Object.keys(doc.components.schemas)) expect(name.length, name).toBeLessThanOrEqual(32)
  })
})
