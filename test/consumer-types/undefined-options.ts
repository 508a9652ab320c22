/**
 * `undefined` for every optional option of every exported option type, as a
 * project with `exactOptionalPropertyTypes` writes it (`{ seed: process.env.SEED
 * ? Number(process.env.SEED) : undefined }`). test/consumer-types.test.ts
 * type-checks it in such a project, against the packed package. Each literal
 * is held twice: to the option type (it takes `undefined` there) and to
 * `EveryOptional` of it (it names every optional property, so a new option
 * must be added here). Compiled only, never run.
 */
import type {
  ApiError,
  CreateMockWorldOptions,
  CreateWorldOptions,
  DelegationSigningOptions,
  FaultRuleInput,
  JournalQuery,
  MatchOptions,
  MockServerOptions,
  OpenApiOptions,
  RequestMatch,
  Simulator,
  SimulatorOptions,
  WorldsOptions,
} from 'multi-area-mock'
import type { BrowserSimulatorOptions } from 'multi-area-mock/browser'
import type { PropagateMockWorldOptions, ServerOptions } from 'multi-area-mock/node'
import { type MockOptions, test } from 'multi-area-mock/playwright'
import type { VerifyOptions } from 'multi-area-mock/verify'
import type { AttachWorldOnFailureOptions } from 'multi-area-mock/vitest'
import { expect } from 'vitest'

/** The keys of `T` a value may leave out. */
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T]
/** Every optional property of `T`, each present and `undefined`. */
type EveryOptional<T> = { [K in OptionalKeys<T>]-?: undefined }
/** An option that holds an object of options of its own. */
type Nested<T, K extends keyof T> = Exclude<NonNullable<T[K]>, string | readonly unknown[] | ((...args: never[]) => unknown)>

// multi-area-mock

export const simulatorOptions = {
  seed: undefined,
  clock: undefined,
  scenario: undefined,
  scenarios: undefined,
  areas: undefined,
  baseUrls: undefined,
  root: undefined,
  limits: undefined,
  onInternalError: undefined,
  journal: undefined,
  faults: undefined,
  worlds: undefined,
  ingestion: undefined,
  auth: undefined,
  signatureMode: undefined,
  blockTime: undefined,
} satisfies SimulatorOptions satisfies EveryOptional<SimulatorOptions>
export const simulatorBaseUrls = { admin: undefined, core: undefined, quantum: undefined, general: undefined, ledger: undefined } satisfies Nested<
  SimulatorOptions,
  'baseUrls'
> satisfies EveryOptional<Nested<SimulatorOptions, 'baseUrls'>>
export const simulatorLimits = { bodyBytes: undefined, ingestPoints: undefined } satisfies Nested<SimulatorOptions, 'limits'> satisfies EveryOptional<
  Nested<SimulatorOptions, 'limits'>
>
export const simulatorJournal = { size: undefined, bodyLimit: undefined } satisfies Nested<SimulatorOptions, 'journal'> satisfies EveryOptional<Nested<SimulatorOptions, 'journal'>>
export const simulatorIngestion = { sensorWindow: undefined, window: undefined } satisfies Nested<SimulatorOptions, 'ingestion'> satisfies EveryOptional<
  Nested<SimulatorOptions, 'ingestion'>
>
export const simulatorAuth = { secret: undefined, expiresIn: undefined } satisfies Nested<SimulatorOptions, 'auth'> satisfies EveryOptional<Nested<SimulatorOptions, 'auth'>>
export const worldsOptions = {
  max: undefined,
  idle: undefined,
  maxRecords: undefined,
  maxTotalRecords: undefined,
  now: undefined,
} satisfies NonNullable<WorldsOptions> satisfies EveryOptional<NonNullable<WorldsOptions>>

export const createWorldOptions = { id: undefined, scenario: undefined, seed: undefined, clock: undefined } satisfies CreateWorldOptions satisfies EveryOptional<CreateWorldOptions>
export const openApiOptions = { origin: undefined, area: undefined } satisfies OpenApiOptions satisfies EveryOptional<OpenApiOptions>
export const journalQuery = {
  area: undefined,
  method: undefined,
  path: undefined,
  status: undefined,
  since: undefined,
  limit: undefined,
} satisfies JournalQuery satisfies EveryOptional<JournalQuery>
export const faultRule = {
  area: undefined,
  method: undefined,
  route: undefined,
  latency: undefined,
  status: undefined,
  probability: undefined,
  times: undefined,
  drop: undefined,
  retryAfter: undefined,
} satisfies FaultRuleInput satisfies EveryOptional<FaultRuleInput>
export const delegationSigningOptions = { chainId: undefined } satisfies DelegationSigningOptions satisfies EveryOptional<DelegationSigningOptions>
type ApiErrorOptions = NonNullable<ConstructorParameters<typeof ApiError>[3]>
export const apiErrorOptions = { details: undefined, extra: undefined, headers: undefined } satisfies ApiErrorOptions satisfies EveryOptional<ApiErrorOptions>

export const mockServerOptions = { controlToken: undefined, fetch: undefined } satisfies MockServerOptions satisfies EveryOptional<MockServerOptions>
export const createMockWorldOptions = {
  id: undefined,
  scenario: undefined,
  seed: undefined,
  clock: undefined,
  controlToken: undefined,
  fetch: undefined,
} satisfies CreateMockWorldOptions satisfies EveryOptional<CreateMockWorldOptions>
export const requestMatch = {
  method: undefined,
  path: undefined,
  area: undefined,
  status: undefined,
  query: undefined,
  headers: undefined,
  body: undefined,
} satisfies RequestMatch satisfies EveryOptional<RequestMatch>
export const matchOptions = { times: undefined, timeout: undefined } satisfies MatchOptions satisfies EveryOptional<MatchOptions>

// multi-area-mock/node

export const serverOptions = {
  ...simulatorOptions,
  port: undefined,
  host: undefined,
  controlToken: undefined,
  corsOrigins: undefined,
  allowedHosts: undefined,
  headersTimeout: undefined,
  requestTimeout: undefined,
  dispatch: undefined,
  proxy: undefined,
  proxyTimeout: undefined,
  stateFile: undefined,
  record: undefined,
  replay: undefined,
  replayUntil: undefined,
  store: undefined,
  log: undefined,
} satisfies ServerOptions satisfies EveryOptional<ServerOptions>
export const serverProxy = { admin: undefined, core: undefined, quantum: undefined, general: undefined, ledger: undefined } satisfies Nested<
  ServerOptions,
  'proxy'
> satisfies EveryOptional<Nested<ServerOptions, 'proxy'>>
export const propagateMockWorldOptions = { mockServerUrl: undefined } satisfies PropagateMockWorldOptions satisfies EveryOptional<PropagateMockWorldOptions>

// multi-area-mock/browser

export const browserSimulatorOptions = {
  ...simulatorOptions,
  persist: undefined,
  storageKey: undefined,
  serviceWorker: undefined,
  quiet: undefined,
  onUnhandledRequest: undefined,
} satisfies BrowserSimulatorOptions satisfies EveryOptional<BrowserSimulatorOptions>
export const browserServiceWorker = { url: undefined, options: undefined } satisfies Nested<BrowserSimulatorOptions, 'serviceWorker'> satisfies EveryOptional<
  Nested<BrowserSimulatorOptions, 'serviceWorker'>
>

// multi-area-mock/playwright: the fixture's options are set with `use`, where each may be left out.

export const mockOptions = {
  mockServerUrl: undefined,
  mockScenario: undefined,
  mockSeed: undefined,
  mockClock: undefined,
  mockControlToken: undefined,
  mockOrigins: undefined,
  mockAttachWorld: undefined,
} satisfies { [K in keyof MockOptions]: undefined }
test.use(mockOptions)

// multi-area-mock/vitest

export const attachWorldOnFailureOptions = { dir: undefined, deleteWorld: undefined } satisfies AttachWorldOnFailureOptions satisfies EveryOptional<AttachWorldOnFailureOptions>
export function matcherOptions(sim: Simulator): void {
  expect(sim).toHaveReceivedRequest(requestMatch, { times: undefined })
}

// multi-area-mock/verify

export const verifyOptions = {
  target: undefined,
  bases: undefined,
  areas: undefined,
  readOnly: undefined,
  fixtures: undefined,
  timeoutMs: undefined,
  headers: undefined,
  only: undefined,
  onResult: undefined,
} satisfies VerifyOptions satisfies EveryOptional<VerifyOptions>
export const verifyBases = { admin: undefined, core: undefined, quantum: undefined, general: undefined, ledger: undefined } satisfies Nested<
  VerifyOptions,
  'bases'
> satisfies EveryOptional<Nested<VerifyOptions, 'bases'>>
export const verifyFixtures = {
  product: undefined,
  resource: undefined,
  token: undefined,
  validator: undefined,
  'signature-mode': undefined,
  'chain-id': undefined,
  'jwt-secret': undefined,
  'expired-token': undefined,
  login: undefined,
} satisfies Nested<VerifyOptions, 'fixtures'> satisfies EveryOptional<Nested<VerifyOptions, 'fixtures'>>
