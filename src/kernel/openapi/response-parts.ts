import { RESPONSE_HEADERS, type ResponseHeader } from '../http/response-headers.js'
import type { RecordedExample } from './examples.js'
import type { SchemaComponents } from './schema-components.js'

/** Where the document keeps the shared pieces an operation refers to. */
export const REF = {
  schema: (name: string) => `#/components/schemas/${name}`,
  header: (name: ResponseHeader) => `#/components/headers/${name}`,
  response: (name: string) => `#/components/responses/${name}`,
} as const

/**
 * The parts of a document that operations share: schemas (`components`),
 * responses and headers. A response is shared under its name when every
 * operation that names it has the very same one; headers are listed only when
 * some response carries them, so the document has no unused component.
 *
 * @example
 * const parts = new ResponseParts(new SchemaComponents())
 * parts.share('NotFound', response) // { $ref: '#/components/responses/NotFound' }
 */
export class ResponseParts {
  readonly components: SchemaComponents
  /** `components.responses`. */
  readonly responses: Record<string, unknown> = {}
  readonly #json = new Map<string, string>()
  readonly #headers = new Set<ResponseHeader>()

  constructor(components: SchemaComponents) {
    this.components = components
  }

  /**
   * A reference to `response` as `components.responses[name]`, or the response
   * itself when that name holds another one already.
   */
  share(name: string, response: Record<string, unknown>): unknown {
    const json = JSON.stringify(response)
    const held = this.#json.get(name)
    if (held !== undefined && held !== json) return response
    if (held === undefined) {
      this.#json.set(name, json)
      this.responses[name] = response
    }
    return { $ref: REF.response(name) }
  }

  /** `headers` of a response, as references to `components.headers`. */
  headerRefs(headers: readonly ResponseHeader[]): Record<string, unknown> {
    for (const header of headers) this.#headers.add(header)
    return Object.fromEntries(headers.map((name) => [name, { $ref: REF.header(name) }]))
  }

  /** `components.headers`: every header some response refers to, in the order `RESPONSE_HEADERS` lists them. */
  headerComponents(): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(RESPONSE_HEADERS)
        .filter(([name]) => this.#headers.has(name as ResponseHeader))
        .map(([name, info]) => [name, { description: info.description, required: info.required, schema: this.components.convert(info.schema, 'output'), example: info.example }]),
    )
  }
}

/** Examples as the `examples` map of a media type. */
export function exampleMap(examples: readonly RecordedExample[], value: (example: RecordedExample) => unknown): Record<string, unknown> {
  return Object.fromEntries(examples.map((example) => [example.name, { ...(example.summary ? { summary: example.summary } : {}), value: value(example) }]))
}
