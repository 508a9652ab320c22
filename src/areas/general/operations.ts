import type { OperationSchemas, RequestOf, ResponseOf } from '../../kernel/schema/operation-types.js'
import { dataParams, dataQuery, dataView, loginBody, loginResult, queuedNotification, resourceParams, resourceUpdateResult, sendNotificationBody, updateResourceBody } from './schemas.js'

/** Area D's operations (OpenAPI `general…` ids) and the schemas their routes use; a test holds the two together. */
export const generalOperations = {
  login: { body: loginBody, response: loginResult },
  getData: { params: dataParams, query: dataQuery, response: dataView },
  updateResource: { params: resourceParams, body: updateResourceBody, response: resourceUpdateResult },
  sendNotification: { body: sendNotificationBody, response: queuedNotification },
} satisfies Record<string, OperationSchemas>

type Ops = typeof generalOperations
export type GeneralLoginRequest = RequestOf<Ops['login']>
export type GeneralLoginResponse = ResponseOf<Ops['login']>
export type GeneralGetDataRequest = RequestOf<Ops['getData']>
export type GeneralGetDataResponse = ResponseOf<Ops['getData']>
export type GeneralUpdateResourceRequest = RequestOf<Ops['updateResource']>
export type GeneralUpdateResourceResponse = ResponseOf<Ops['updateResource']>
export type GeneralSendNotificationRequest = RequestOf<Ops['sendNotification']>
export type GeneralSendNotificationResponse = ResponseOf<Ops['sendNotification']>
