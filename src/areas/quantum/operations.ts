import type { OperationSchemas, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import { entangleBody, measureBody, measurementView, pairView, particleParams, particleView, platformStatusView } from './schemas.js'

/** Area C's operations (OpenAPI `quantum…` ids) and the schemas their routes use; a test holds the two together. */
export const quantumOperations = {
  entangle: { body: entangleBody, response: pairView },
  getParticle: { params: particleParams, response: particleView },
  measure: { body: measureBody, response: measurementView },
  getStatus: { response: platformStatusView },
} satisfies Record<string, OperationSchemas>

type Ops = typeof quantumOperations
export type QuantumEntangleRequest = RequestOf<Ops['entangle']>
export type QuantumEntangleResponse = ResponseOf<Ops['entangle']>
export type QuantumGetParticleRequest = RequestOf<Ops['getParticle']>
export type QuantumGetParticleResponse = ResponseOf<Ops['getParticle']>
export type QuantumMeasureRequest = RequestOf<Ops['measure']>
export type QuantumMeasureResponse = ResponseOf<Ops['measure']>
export type QuantumGetStatusRequest = RequestOf<Ops['getStatus']>
export type QuantumGetStatusResponse = ResponseOf<Ops['getStatus']>
