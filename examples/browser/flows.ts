/**
 * One flow per area, through plain `fetch` only, as an app would call the
 * real backend. Each returns what the page shows (and the test reads).
 * Adding an area's flow = one function here and one entry in `flows`.
 */

export interface Flow {
  /** Also the `data-flow` attribute the test looks for. */
  id: string
  title: string
  run(api: Api): Promise<unknown>
}

export interface Reply {
  status: number
  headers: Headers
  body: any
}

/** `fetch` with JSON in and out; a status other than `expect` (default: any 2xx) throws with the body. */
export type Api = (method: string, path: string, options?: { json?: unknown; headers?: Record<string, string>; expect?: number }) => Promise<Reply>

/** A: create a user, then list pending users (new users start pending, D5). */
const adminFlow: Flow = {
  id: 'admin',
  title: 'A · User administration: create a user, list pending users',
  async run(api) {
    const created = await api('POST', '/admin/api/v1.2/users', {
      json: { username: 'ada.browser', email: 'ada.browser@example.com', password: 'Passw0rd!' },
      expect: 201,
    })
    const pending = await api('GET', '/admin/api/v1.2/users?status=pending&limit=100')
    return {
      created: { id: created.body.id, username: created.body.username, status: created.body.status },
      pending: { total: Number(pending.headers.get('x-total-count')), usernames: pending.body.map((user: { username: string }) => user.username) },
    }
  },
}

/** B: update a product's price and stock, then read it back. */
const coreFlow: Flow = {
  id: 'core',
  title: 'B · Core: update a product',
  async run(api) {
    const before = await api('GET', '/core/products/prod-1001')
    const updated = await api('PUT', '/core/products/prod-1001', { json: { price: 12.5, stock: 7 } })
    const after = await api('GET', '/core/products/prod-1001')
    return {
      before: { price: before.body.price, stock: before.body.stock },
      updated: { id: updated.body.id, price: updated.body.price, stock: updated.body.stock },
      readBack: { price: after.body.price, stock: after.body.stock },
    }
  },
}

/** C: entangle a pair, then measure one particle: the partner collapses to the opposite (D16, D17). */
const quantumFlow: Flow = {
  id: 'quantum',
  title: 'C · Quantum: entangle a pair, measure one particle',
  async run(api) {
    const pair = await api('POST', '/quantum/v1/entangle', { json: { particle_type: 'electron' }, expect: 201 })
    const before = await api('GET', `/quantum/v1/particles/${pair.body.particle_id_b}`)
    const measured = await api('POST', '/quantum/v1/measure', { json: { particle_id: pair.body.particle_id_a, measurement_axis: 'x-axis' } })
    const partner = await api('GET', `/quantum/v1/particles/${pair.body.particle_id_b}`)
    return {
      pair: { a: pair.body.particle_id_a, b: pair.body.particle_id_b },
      partnerBefore: before.body.state,
      measured: { result: measured.body.result, correlated: measured.body.correlated_result, partner: measured.body.correlated_particle_id },
      partnerAfter: partner.body.state,
    }
  },
}

/** D: log in as a seeded user, then update a resource with the token (D6–D8, D19). */
const generalFlow: Flow = {
  id: 'general',
  title: 'D · General: log in, update a resource with the token',
  async run(api) {
    const [user] = (await api('GET', '/admin/api/v1.2/users?status=active&limit=1')).body
    const login = await api('POST', '/general/auth/login', { json: { username: user.username, password: 'Passw0rd!' } })
    const updated = await api('PUT', '/general/resources/1', {
      json: { data: { title: 'Renamed in the browser', owner: user.username } },
      headers: { authorization: `Bearer ${login.body.token}` },
    })
    const read = await api('GET', '/general/data/1?fields=title,owner')
    return {
      login: { tokenParts: String(login.body.token).split('.').length, expiresIn: login.body.expires_in },
      updated: { status: updated.status, title: updated.body.resource.title },
      read: read.body,
      owner: user.username,
    }
  },
}

/** E: chain status, a token, and a stake delegation (format mode checks the signature's shape, D21–D23). */
const ledgerFlow: Flow = {
  id: 'ledger',
  title: 'E · Ledger: chain status, a token, a delegation',
  async run(api) {
    const status = await api('GET', '/ledger/v1/status')
    const token = await api('GET', '/ledger/v1/tokens/usdc')
    const delegation = await api('POST', '/ledger/v1/stake/delegate', {
      json: {
        delegatorAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
        validatorAddress: '0x87148ec17A1bD256911257B51321a032a2826C8e',
        amount: '1000000000000000000',
        signature: `0x${'ab'.repeat(64)}1b`,
      },
      expect: 202,
    })
    return {
      status: { status: status.body.status, height: status.body.network_height, hash: status.body.last_block_hash },
      token: { symbol: token.body.symbol, decimals: token.body.decimals, supply: token.body.total_supply },
      delegation: { hash: delegation.body.transaction_hash, message: delegation.body.message },
    }
  },
}

/** The control API: health and the whole world as JSON (D26). */
const controlFlow: Flow = {
  id: 'control',
  title: 'Control API: /__mock/health and /__mock/state',
  async run(api) {
    const health = await api('GET', '/__mock/health')
    const state = await api('GET', '/__mock/state')
    return {
      health: { status: health.body.status, seed: health.body.seed, scenario: health.body.scenario, areas: health.body.areas.map((area: { id: string }) => area.id) },
      state: {
        users: state.body.accounts.users.length,
        products: state.body.core?.products.length,
        passwordHashesShown: /password_hash|pbkdf2/.test(JSON.stringify(state.body)),
      },
    }
  },
}

/** In the order the page runs them. */
export const flows: Flow[] = [adminFlow, coreFlow, quantumFlow, generalFlow, ledgerFlow, controlFlow]
