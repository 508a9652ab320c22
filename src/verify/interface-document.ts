import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsPlugin from 'ajv-formats'
import type { AreaId } from '../areas/registry.js'
import { createSimulator } from '../simulator/create-simulator.js'
import type { Observed } from './http-probe.js'

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document read by path, not typed as a whole
type Json = Record<string, any>

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (ajv: Ajv2020) => Ajv2020

/**
 * The interface as our OpenAPI 3.1 document describes it, one document per
 * area with its paths as the interface writes them (`/api/v1.2/users`),
 * generated in-process from the areas' zod schemas (the single source of the
 * routes' validation and of `GET /__mock/openapi.json`). Answers are held to it
 * with ajv (JSON Schema 2020-12, formats included); response objects refuse
 * unknown fields, so an echoed secret or a renamed field shows.
 *
 * @example
 * const doc = await InterfaceDocument.generate()
 * doc.mismatch('admin', 'GET /api/v1.2/users/{userId}', reply) // undefined, or what differs
 */
export class InterfaceDocument {
  readonly #documents: Map<AreaId, Json>
  readonly #ajv = new Ajv2020({ allErrors: true, strict: false })
  readonly #validators = new Map<object, ValidateFunction>()

  private constructor(documents: Map<AreaId, Json>) {
    this.#documents = documents
    addFormats(this.#ajv)
  }

  /** Generates the document of every area (about a second: its examples are recorded on a scratch simulator). */
  static async generate(): Promise<InterfaceDocument> {
    const sim = createSimulator()
    const documents = new Map<AreaId, Json>()
    for (const area of sim.areas) documents.set(area.id, (await sim.openapi({ area: area.id })) as unknown as Json)
    return new InterfaceDocument(documents)
  }

  /**
   * How `observed` departs from what the document says `operation` answers
   * (`'POST /api/v1.2/users'`): an undocumented status, a missing required
   * header, a body that is not JSON or does not match its schema. One line;
   * `undefined` when it conforms.
   */
  mismatch(area: AreaId, operation: string, observed: Observed): string | undefined {
    const documented = this.#operation(area, operation)
    const response = documented.responses?.[String(observed.status)] as Json | undefined
    if (!response) return `status ${observed.status} is not documented for ${operation} (documented: ${Object.keys(documented.responses ?? {}).join(', ')})`
    const resolved = this.#resolve(area, response)
    const problems: string[] = []
    for (const [name, header] of Object.entries<Json>(resolved.headers ?? {})) {
      if (this.#resolve(area, header).required && !observed.headers.has(name)) problems.push(`header ${name} is missing`)
    }
    const schema = resolved.content?.['application/json']?.schema as Json | undefined
    if (!schema) {
      if (observed.text !== '') problems.push(`a body where none is documented: ${excerpt(observed.text)}`)
    } else if (!observed.isJson) {
      problems.push(`expected a JSON body, got ${observed.headers.get('content-type') ?? 'no content type'}: ${excerpt(observed.text)}`)
    } else {
      const validate = this.#validator(area, schema)
      if (!validate(observed.json)) {
        for (const error of validate.errors ?? []) {
          const extra = error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''
          problems.push(`body${error.instancePath} ${error.message}${extra}`)
        }
      }
    }
    if (problems.length === 0) return undefined
    const unique = [...new Set(problems)]
    return unique.length > 3 ? `${unique.slice(0, 3).join('; ')}; and ${unique.length - 3} more` : unique.join('; ')
  }

  /** Whether the document has the operation (a check of an operation we do not document is a bug in verify). */
  #operation(area: AreaId, operation: string): Json {
    const [method = '', template = ''] = operation.split(' ')
    const found = this.#documents.get(area)?.paths?.[template]?.[method.toLowerCase()] as Json | undefined
    if (!found) throw new Error(`verify has no documented operation ${operation} in area ${area}.`)
    return found
  }

  #validator(area: AreaId, schema: Json): ValidateFunction {
    let validate = this.#validators.get(schema)
    if (!validate) {
      // `#/components/...` references resolve inside the compiled schema's root.
      validate = this.#ajv.compile({ ...schema, components: this.#documents.get(area)!.components })
      this.#validators.set(schema, validate)
    }
    return validate
  }

  #resolve(area: AreaId, value: Json): Json {
    if (typeof value.$ref !== 'string') return value
    const target = value.$ref
      .slice(2)
      .split('/')
      .reduce<Json | undefined>((node, key) => node?.[key], this.#documents.get(area))
    if (!target) throw new Error(`The document refers to ${value.$ref}, which it does not contain.`)
    return this.#resolve(area, target)
  }
}

/** The start of a body, on one line, for a report. */
export function excerpt(text: string, length = 120): string {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line === '') return '(empty)'
  return line.length > length ? `${line.slice(0, length)}…` : line
}
