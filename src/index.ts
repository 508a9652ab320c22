/**
 * multi-area-mock: a simulated backend for five API areas, as msw handlers.
 * Environment-agnostic: works in Node test runners, browsers and servers.
 *
 * @example
 * // With `setupServer` from msw's Node entry (or `setupWorker` in a browser):
 * const sim = createSimulator({ seed: 1, clock: '2026-01-01T00:00:00Z' })
 * const server = setupServer(...sim.handlers)
 */
export { createSimulator } from './simulator/create-simulator.js'
export { CONTROL_PREFIX, type MountedArea, type OpenApiOptions, type Simulator, type SimulatorDb } from './simulator/simulator.js'
export { DEFAULT_SEED, type SimulatorOptions } from './simulator/options.js'
export { builtinScenarios, DEFAULT_SCENARIO } from './simulator/state/builtin-scenarios.js'
export type { ChangeListener, SimulatorChange } from './simulator/events/change-listeners.js'
export type { OpenApiDocument } from './kernel/openapi/document.js'
export {
  type Scenario,
  type ScenarioInput,
  scenarioJsonSchema,
  scenarioSchema,
  type WorldState,
  type WorldStateInput,
  worldStateSchema,
} from './simulator/state/scenario-schema.js'
export { ScenarioError } from './kernel/errors/scenario-error.js'
export { type JournalEntry, journalEntrySchema, type RequestJournal } from './simulator/journal/journal-entry.js'
export type { JournalQuery } from './simulator/journal/journal-query.js'
export { type WorldBundle, worldBundleSchema } from './simulator/history/world-bundle.js'
export { FAULT_STATUS_RANGE, type FaultRule, type FaultRuleInput, type FaultStatus, faultRuleSchema, faultRulesSchema } from './simulator/faults/fault-rule.js'
export type { FaultRuleView, Faults } from './simulator/faults/faults.js'
export {
  type CreateWorldOptions,
  DEFAULT_WORLD_ID,
  WORLD_COOKIE,
  WORLD_HEADER,
  type WorldInfo,
  type Worlds,
  type WorldsOptions,
} from './simulator/worlds/worlds.js'
export type { AreaId } from './areas/registry.js'
export {
  DEFAULT_INGEST_WINDOW,
  DEFAULT_SENSOR_WINDOW,
  type IngestionCounts,
  type Readings,
  type SensorCounts,
  type StoredPoint,
} from './areas/core/index.js'
export { ApiError, type ErrorDetail } from './kernel/errors/api-error.js'
export { type Clock, fixedClock, systemClock } from './kernel/time/clock.js'
export { ConfigError } from './kernel/errors/config-error.js'
export type { ClockSetting, SimClock } from './kernel/time/sim-clock.js'
export { DEFAULT_PASSWORD } from './world/accounts/account-schema.js'
export { type AccessTokenClaims, DEFAULT_TOKEN_TTL, DELIVERY_DELAY_MS, derivedSecret, TOKEN_ISSUER } from './areas/general/index.js'
export {
  blockHash,
  DEFAULT_CHAIN_ID,
  DELEGATION_DOMAIN,
  DELEGATION_TYPES,
  type DelegationFields,
  type DelegationSigningOptions,
  type DelegationTypedData,
  delegationMessage,
  delegationTypedData,
  type SignatureMode,
  transactionHash,
} from './areas/ledger/index.js'
// A world on a running simulator server, from any test runner (docs/e2e.md).
export { type ClockView, createMockWorld, type CreateMockWorldOptions, MockWorld, type MockServerOptions } from './testing/mock-world.js'
export { MockServerError } from './testing/mock-server.js'
export type { MatchOptions, RequestMatch } from './testing/request-match.js'

/** Request and response types of every operation, named after its OpenAPI operationId (docs/types.md). */
export type * from './areas/admin/operations.js'
export type * from './areas/core/operations.js'
export type * from './areas/quantum/operations.js'
export type * from './areas/general/operations.js'
export type * from './areas/ledger/operations.js'
export type * from './simulator/control/control-operations.js'
export type { OperationSchemas, RequestOf, ResponseOf } from './kernel/schema/operation-types.js'
export type { PublicAccount } from './world/accounts/account-schema.js'
