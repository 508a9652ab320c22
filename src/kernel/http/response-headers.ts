import * as z from 'zod'

/** What the document says about one response header. */
export interface ResponseHeaderInfo {
  description: string
  schema: z.ZodType
  /** Whether every response that documents the header carries it. */
  required: boolean
}

/**
 * The response headers that matter to a client, as the OpenAPI document
 * describes them; also the headers CORS exposes to browser apps.
 *
 * @example
 * responses: { 200: { body: z.array(user), headers: ['X-Total-Count', 'Link'] } }
 */
export const RESPONSE_HEADERS = {
  'X-Total-Count': { description: 'Number of items matching the request over all pages (D12).', schema: z.int().min(0), required: true },
  Link: { description: 'RFC 8288 links to the first, previous, next and last pages (D12).', schema: z.string(), required: true },
  Location: { description: 'Path of the created resource.', schema: z.string(), required: true },
  'WWW-Authenticate': { description: 'The `Bearer` challenge, with RFC 6750 `error` (D7).', schema: z.string(), required: true },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: z.int().min(0), required: false },
  Allow: { description: 'The methods the path supports.', schema: z.string(), required: true },
} as const satisfies Record<string, ResponseHeaderInfo>

/** A documented response header. */
export type ResponseHeader = keyof typeof RESPONSE_HEADERS
