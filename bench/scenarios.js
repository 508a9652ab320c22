// @ts-check
// The benchmark's scenarios in one list: the throughput rows and the server variants of `npm run bench` (selected by BENCH_ONLY, BENCH_MODES, BENCH_COMPARE), the scale, proxy and world rows.

import { formatDelegation, registration } from './lib/bodies.js'
import { CLI, startSimulator } from './lib/servers.js'
import { setting } from './switches.js'

/**
 * @typedef {import('./lib/wrk.js').HttpRequest} HttpRequest
 * @typedef {{ status: number, headers: Record<string, string>, body: string }} Fixture
 */
/**
 * The answers captured from the first simulator before any load: the baselines replay them, every server must match them.
 *
 * @typedef {object} Fixtures
 * @property {Fixture} listed
 * @property {Fixture} detail
 * @property {string} detailPath
 * @property {Fixture} created
 * @property {string} loginBody
 * @property {Fixture} loggedIn
 * @property {Fixture} data
 * @property {Fixture} entangled
 * @property {string} measureBody
 * @property {Fixture} measured
 * @property {Fixture} status
 * @property {string} captureDelegation
 * @property {Fixture} delegated
 * @property {number} usersSeeded users in the seeded world, which every row starts from
 */
/**
 * One throughput row: what it sends, what it must answer, how each driver makes its bodies.
 *
 * @typedef {import('./lib/load.js').Loadable & { key: string, status: number, bytes: number, createsUser?: boolean, serverArgs?: string[], onServer?: (round: number) => void }} Row
 */

export const LIST_PATH = '/admin/api/v1.2/users'
export const LOGIN_PATH = '/general/auth/login'
export const DATA_PATH = '/general/data/1'
export const ENTANGLE_PATH = '/quantum/v1/entangle'
export const MEASURE_PATH = '/quantum/v1/measure'
export const STATUS_PATH = '/ledger/v1/status'
export const DELEGATE_PATH = '/ledger/v1/stake/delegate'
/** Every entangle creates a new pair; measuring one particle again and again is valid too. */
export const ENTANGLE_BODY = JSON.stringify({ particle_type: 'electron', entanglement_mode: 'spin' })
/** `serve` flags of the servers the eip191 row runs against (signers recovered). */
export const EIP191 = ['--signature-mode', 'eip191']
const JSON_HEADERS = { 'content-type': 'application/json' }

/**
 * Simulators measured side by side: the two ways the server reaches the
 * routes (ServerOptions.dispatch; `direct` went in bc7121a), and `fast` (the default)
 * again with the request journal off, so the same run shows what the journal costs.
 *
 * @type {Record<string, string[]>}
 */
const VARIANTS = {
  msw: ['--dispatch', 'msw'],
  fast: ['--dispatch', 'fast'],
  nojournal: ['--dispatch', 'fast', '--journal-size', '0'],
}

/**
 * The variants to run (BENCH_MODES, default all) and, with BENCH_COMPARE, each again
 * as `<variant>@other` on that build: same run, same baseline, for before/after comparisons.
 */
export function selectedModes() {
  const other = setting('BENCH_COMPARE')
  /** @type {Record<string, string[]>} */
  const variants = { ...VARIANTS }
  if (other) for (const mode of Object.keys(VARIANTS)) variants[`${mode}@other`] = VARIANTS[mode]
  /** @type {string[]} */
  const modes = [...setting('BENCH_MODES')]
  if (modes.length === 0) modes.push(...Object.keys(VARIANTS))
  if (other)
    modes.push(
      ...modes
        .filter((mode) => !mode.includes('@'))
        .map((mode) => `${mode}@other`)
        .filter((mode) => !modes.includes(mode)),
    )
  for (const mode of modes) if (!(mode in variants)) throw new Error(`BENCH_MODES: unknown variant "${mode}"; variants: ${Object.keys(variants).join(', ')}`)
  /**
   * Starts the CLI server of a variant (`extra`: more `serve` flags), resolved once it listens.
   *
   * @param {string} mode
   * @param {string[]} [extra]
   */
  const start = (mode, extra = []) => {
    const label = extra.length ? `${mode}, ${extra.join(' ')}` : mode
    return startSimulator([...variants[mode], ...extra], { cli: mode.endsWith('@other') ? other : CLI, name: `simulator (${label})` })
  }
  return { modes, variants, start }
}

/**
 * Whether BENCH_ONLY selects the row `key` (default: every row).
 *
 * @param {string} key
 */
export function wants(key) {
  const only = setting('BENCH_ONLY')
  return only.length === 0 || only.includes(key)
}

/**
 * Counter-made bodies, so none repeats: format-mode delegations, usernames for
 * autocannon, and a fresh tag per wrk run (wrk's `{n}` restarts at 1 each run).
 */
export function requestBodies() {
  let formatSequence = 0
  let sequence = 0
  let runTag = 0
  return {
    formatDelegation: () => formatDelegation(1, ++formatSequence),
    nextRegistration: () => registration(`bench-${++sequence}`),
    createTemplate: () => registration(`bench-${++runTag}-{n}`),
    // Format mode only checks the signature's shape: r carries the run, s the counter.
    delegateTemplate: () => formatDelegation(++runTag + 1_000_000, '{hex}'),
  }
}

/**
 * Every throughput row, in the order they run (POSTs last: they grow the world), BENCH_ONLY applied.
 *
 * @param {Fixtures} f
 * @param {ReturnType<typeof requestBodies>} bodies
 * @param {{ file: string, list: string[], perRound: number }} signed the eip191 row's pre-signed delegations
 * @returns {Row[]}
 */
export function throughputRows(f, bodies, signed) {
  /** Next pre-signed delegation; starts over for each server, whose world has not seen them. */
  let signedNext = 0
  const bytes = (/** @type {Fixture} */ fixture) => Buffer.byteLength(fixture.body)
  /** @type {Row[]} */
  const all = [
    { key: 'list', name: `GET ${LIST_PATH}`, status: 200, bytes: bytes(f.listed), request: { method: 'GET', path: LIST_PATH } },
    { key: 'one', name: `GET ${LIST_PATH}/{id}`, status: 200, bytes: bytes(f.detail), request: { method: 'GET', path: f.detailPath } },
    // Every login answers a new token (new jti) of the same length; it does not grow the world.
    { key: 'login', name: `POST ${LOGIN_PATH}`, status: 200, bytes: bytes(f.loggedIn), request: { method: 'POST', path: LOGIN_PATH, headers: JSON_HEADERS, body: f.loginBody } },
    { key: 'data', name: 'GET /general/data/{id}', status: 200, bytes: bytes(f.data), request: { method: 'GET', path: DATA_PATH } },
    // The same seeded particle measured again and again (valid: later measurements follow D17's cos² rule).
    {
      key: 'measure',
      name: `POST ${MEASURE_PATH}`,
      status: 200,
      bytes: bytes(f.measured),
      request: { method: 'POST', path: MEASURE_PATH, headers: JSON_HEADERS, body: f.measureBody },
    },
    {
      key: 'entangle',
      name: `POST ${ENTANGLE_PATH}`,
      status: 201,
      bytes: bytes(f.entangled),
      request: { method: 'POST', path: ENTANGLE_PATH, headers: JSON_HEADERS, body: ENTANGLE_BODY },
    },
    { key: 'status', name: `GET ${STATUS_PATH}`, status: 200, bytes: bytes(f.status), request: { method: 'GET', path: STATUS_PATH } },
    // A counter in the body makes each username unique.
    {
      key: 'create',
      name: `POST ${LIST_PATH}`,
      createsUser: true,
      status: 201,
      bytes: bytes(f.created),
      request: { method: 'POST', path: LIST_PATH, headers: JSON_HEADERS },
      template: bodies.createTemplate,
      next: bodies.nextRegistration,
    },
    {
      key: 'delegate',
      name: `POST ${DELEGATE_PATH} (format)`,
      status: 202,
      bytes: bytes(f.delegated),
      request: { method: 'POST', path: DELEGATE_PATH, headers: JSON_HEADERS },
      template: bodies.delegateTemplate,
      next: bodies.formatDelegation,
    },
    {
      key: 'eip191',
      name: `POST ${DELEGATE_PATH} (eip191)`,
      status: 202,
      bytes: bytes(f.delegated),
      serverArgs: EIP191,
      request: { method: 'POST', path: DELEGATE_PATH, headers: JSON_HEADERS },
      // Round r sends its own slice of the pre-signed delegations to each server.
      signedFile: signed.file,
      onServer: (round) => {
        signedNext = round * signed.perRound
      },
      next: () => signed.list[signedNext++ % signed.list.length],
    },
  ]
  const rows = all.filter((row) => wants(row.key))
  if (rows.length === 0) throw new Error(`BENCH_ONLY="${setting('BENCH_ONLY').join(',')}" names no endpoint; keys: ${all.map((row) => row.key).join(', ')}`)
  return rows
}

/**
 * The requests every server must answer byte for byte as the capture did: `[method, path, fixture, body]`.
 *
 * @param {Fixtures} f
 * @param {string} createBody
 * @param {string} delegateBody
 * @returns {Array<[string, string, Fixture, string?]>}
 */
export function checkedRequests(f, createBody, delegateBody) {
  return [
    ['GET', LIST_PATH, f.listed],
    ['GET', f.detailPath, f.detail],
    ['POST', LIST_PATH, f.created, createBody],
    ['POST', LOGIN_PATH, f.loggedIn, f.loginBody],
    ['GET', DATA_PATH, f.data],
    ['POST', ENTANGLE_PATH, f.entangled, ENTANGLE_BODY],
    ['POST', MEASURE_PATH, f.measured, f.measureBody],
    ['GET', STATUS_PATH, f.status],
    ['POST', DELEGATE_PATH, f.delegated, delegateBody],
  ]
}

/**
 * The bare baseline's answers (bench/baseline-server.js's BENCH_BASELINE_FIXTURES).
 *
 * @param {Fixtures} f
 */
export function baselineFixtures(f) {
  return JSON.stringify({
    list: f.listed,
    detail: f.detail,
    create: f.created,
    listPath: LIST_PATH,
    detailPrefix: `${LIST_PATH}/`,
    routes: [
      { method: 'GET', path: DATA_PATH, fixture: f.data },
      { method: 'POST', path: ENTANGLE_PATH, fixture: f.entangled },
      { method: 'POST', path: MEASURE_PATH, fixture: f.measured },
      { method: 'POST', path: LOGIN_PATH, fixture: f.loggedIn },
      { method: 'GET', path: STATUS_PATH, fixture: f.status },
      { method: 'POST', path: DELEGATE_PATH, fixture: f.delegated },
    ],
  })
}

/**
 * The scale rows (`--scale`), lists of 100: `tag` makes a run's usernames its own.
 *
 * @param {string} firstId a user of the world
 * @param {number} lastPage
 * @returns {Array<{ name: string, request: HttpRequest, template?: (tag: string) => string }>}
 */
export function scaleRows(firstId, lastPage) {
  return [
    { name: 'list, first page', request: { method: 'GET', path: `${LIST_PATH}?limit=100` } },
    { name: 'list, last page', request: { method: 'GET', path: `${LIST_PATH}?limit=100&page=${lastPage}` } },
    { name: 'read by id', request: { method: 'GET', path: `${LIST_PATH}/${firstId}` } },
    { name: 'create', request: { method: 'POST', path: LIST_PATH, headers: JSON_HEADERS }, template: (tag) => registration(`scale-${tag}-{n}`) },
  ]
}

/**
 * The proxy rows (`npm run bench:proxy`): Area A's reads, straight and through `serve --proxy`.
 *
 * @param {string} id a user of the world
 * @returns {Array<{ key: string, name: string, request: HttpRequest }>}
 */
export function proxyRows(id) {
  return [
    { key: 'one', name: `GET ${LIST_PATH}/{id}`, request: { method: 'GET', path: `${LIST_PATH}/${id}` } },
    { key: 'list', name: `GET ${LIST_PATH} (20)`, request: { method: 'GET', path: LIST_PATH } },
    { key: 'list100', name: `GET ${LIST_PATH}?limit=100`, request: { method: 'GET', path: `${LIST_PATH}?limit=100` } },
  ]
}

/** The world scenarios `--worlds` creates and deletes: the default one (the 5 ms target) and the empty one. */
export const WORLD_SCENARIOS = ['default', 'empty']
