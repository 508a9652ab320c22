import type { OperationsOf, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import type { ControlRoute } from './control-features.js'

/**
 * The control API's operations (OpenAPI `control…` ids), keyed by operation id,
 * as the routes of its features declare them (control-features.ts): the
 * request and response types below are inferred from the routes, so they
 * cannot drift from what the server validates.
 */
export type ControlOperations = OperationsOf<ControlRoute[]>

type Ops = ControlOperations
export type ControlGetHealthRequest = RequestOf<Ops['getHealth']>
export type ControlGetHealthResponse = ResponseOf<Ops['getHealth']>
export type ControlResetRequest = RequestOf<Ops['reset']>
export type ControlResetResponse = ResponseOf<Ops['reset']>
export type ControlListScenariosRequest = RequestOf<Ops['listScenarios']>
export type ControlListScenariosResponse = ResponseOf<Ops['listScenarios']>
export type ControlLoadScenarioRequest = RequestOf<Ops['loadScenario']>
export type ControlLoadScenarioResponse = ResponseOf<Ops['loadScenario']>
export type ControlGetClockRequest = RequestOf<Ops['getClock']>
export type ControlGetClockResponse = ResponseOf<Ops['getClock']>
export type ControlMoveClockRequest = RequestOf<Ops['moveClock']>
export type ControlMoveClockResponse = ResponseOf<Ops['moveClock']>
export type ControlGetStateRequest = RequestOf<Ops['getState']>
export type ControlGetStateResponse = ResponseOf<Ops['getState']>
export type ControlReplaceStateRequest = RequestOf<Ops['replaceState']>
export type ControlReplaceStateResponse = ResponseOf<Ops['replaceState']>
export type ControlGetOpenApiRequest = RequestOf<Ops['getOpenApi']>
export type ControlGetOpenApiResponse = ResponseOf<Ops['getOpenApi']>
export type ControlListRequestsRequest = RequestOf<Ops['listRequests']>
export type ControlListRequestsResponse = ResponseOf<Ops['listRequests']>
export type ControlClearRequestsRequest = RequestOf<Ops['clearRequests']>
export type ControlClearRequestsResponse = ResponseOf<Ops['clearRequests']>
export type ControlListFaultsRequest = RequestOf<Ops['listFaults']>
export type ControlListFaultsResponse = ResponseOf<Ops['listFaults']>
export type ControlReplaceFaultsRequest = RequestOf<Ops['replaceFaults']>
export type ControlReplaceFaultsResponse = ResponseOf<Ops['replaceFaults']>
export type ControlAddFaultRequest = RequestOf<Ops['addFault']>
export type ControlAddFaultResponse = ResponseOf<Ops['addFault']>
export type ControlClearFaultsRequest = RequestOf<Ops['clearFaults']>
export type ControlClearFaultsResponse = ResponseOf<Ops['clearFaults']>
export type ControlListWorldsRequest = RequestOf<Ops['listWorlds']>
export type ControlListWorldsResponse = ResponseOf<Ops['listWorlds']>
export type ControlCreateWorldRequest = RequestOf<Ops['createWorld']>
export type ControlCreateWorldResponse = ResponseOf<Ops['createWorld']>
export type ControlGetWorldRequest = RequestOf<Ops['getWorld']>
export type ControlGetWorldResponse = ResponseOf<Ops['getWorld']>
export type ControlDeleteWorldRequest = RequestOf<Ops['deleteWorld']>
export type ControlDeleteWorldResponse = ResponseOf<Ops['deleteWorld']>
export type ControlStreamEventsRequest = RequestOf<Ops['streamEvents']>
export type ControlStreamEventsResponse = ResponseOf<Ops['streamEvents']>
export type ControlSaveRecordingRequest = RequestOf<Ops['saveRecording']>
export type ControlSaveRecordingResponse = ResponseOf<Ops['saveRecording']>
export type ControlGetBundleRequest = RequestOf<Ops['getBundle']>
export type ControlGetBundleResponse = ResponseOf<Ops['getBundle']>
export type ControlGetHistoryRequest = RequestOf<Ops['getHistory']>
export type ControlGetHistoryResponse = ResponseOf<Ops['getHistory']>
export type ControlGetHistoryPointRequest = RequestOf<Ops['getHistoryPoint']>
export type ControlGetHistoryPointResponse = ResponseOf<Ops['getHistoryPoint']>
