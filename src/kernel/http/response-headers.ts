import * as z from 'zod'

/** What the document says about one response header. */
export interface ResponseHeaderInfo {
  description: string
  schema: z.ZodType
  /** Whether every response that documents the header carries it. */
  required: boolean
  /** A value as the server writes it: mock servers (Prism) answer with it instead of making one up. */
  example: string | number
}

/**
 * The response headers that matter to a client, as the OpenAPI document
 * describes them; also the headers CORS exposes to browser apps.
 *
 * @example
 * responses: { 200: { body: z.array(user), headers: ['X-Total-Count', 'Link'] } }
 */
export const RESPONSE_HEADERS = {
  'X-Total-Count': { description: 'Number of items matching the request over all pages.', schema: z.int().min(0), required: true, example: 48 },
  Link: {
    description: 'RFC 8288 links to the first, previous, next and last pages.',
    schema: z.string(),
    required: true,
    example: '</admin/api/v1.2/users?page=1&limit=20>; rel="first", </admin/api/v1.2/users?page=2&limit=20>; rel="next", </admin/api/v1.2/users?page=3&limit=20>; rel="last"',
  },
  Location: { description: 'Path of the created resource.', schema: z.string(), required: true, example: '/admin/api/v1.2/users/00680b53-ba3e-87ed-879f-2a031f69cab4' },
  'WWW-Authenticate': {
    description: 'The `Bearer` challenge, with RFC 6750 `error`.',
    schema: z.string(),
    required: true,
    example: 'Bearer realm="general", error="invalid_token"',
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: z.int().min(0), required: false, example: 1 },
  Allow: { description: 'The methods the path supports.', schema: z.string(), required: true, example: 'GET, PUT' },
} as const satisfies Record<string, ResponseHeaderInfo>

/** A documented response header. */
export type ResponseHeader = keyof typeof RESPONSE_HEADERS
