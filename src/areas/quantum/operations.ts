import type { OperationsOf, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import type { quantumRoutes } from './routes.js'

/**
 * Area C's operations (OpenAPI `quantum…` ids), keyed by operation id, as its
 * routes declare them: the request and response types below are inferred from
 * the routes, so they cannot drift from what the server validates.
 */
export type QuantumOperations = OperationsOf<ReturnType<typeof quantumRoutes>>

type Ops = QuantumOperations
export type QuantumEntangleRequest = RequestOf<Ops['entangle']>
export type QuantumEntangleResponse = ResponseOf<Ops['entangle']>
export type QuantumGetParticleRequest = RequestOf<Ops['getParticle']>
export type QuantumGetParticleResponse = ResponseOf<Ops['getParticle']>
export type QuantumMeasureRequest = RequestOf<Ops['measure']>
export type QuantumMeasureResponse = ResponseOf<Ops['measure']>
export type QuantumGetStatusRequest = RequestOf<Ops['getStatus']>
export type QuantumGetStatusResponse = ResponseOf<Ops['getStatus']>
