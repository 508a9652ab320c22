import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsPlugin from 'ajv-formats'

/** What the check needs of a reply (`call()`'s `Reply`). */
export interface ObservedReply {
  status: number
  headers: Headers
  body: unknown
  text: string
}

type Json = Record<string, any>

interface DocumentedPath {
  template: string
  pattern: RegExp
  item: Json
  params: number
}

const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default

/**
 * Holds replies against an OpenAPI document: the operation is found from the
 * method and the URL path (each path under its servers' base paths: the mounted
 * base URLs), the status must be one the operation documents, the documented
 * required headers must be there, and the JSON body must match its schema (ajv,
 * draft 2020-12, with formats; response objects refuse unknown fields, so a
 * field that appears or disappears is caught). A status the operation does not
 * list is held to its range (`4XX`, `5XX`: what an injected fault may answer)
 * when it has one, and is refused otherwise. A URL no path matches must be the
 * router's documented 404, a known path with another method its 405 (the
 * document's `x-unrouted-responses`). Routes the document marks
 * `x-undocumented` are not checked (a test lists them instead).
 *
 * @example
 * const check = new OpenApiCheck(await (await fetch(`${base}/__mock/openapi.json`)).json())
 * const problem = check.problem('GET', `${base}/core/users`, reply) // undefined when it matches
 */
export class OpenApiCheck {
  readonly #doc: Json
  readonly #paths: DocumentedPath[]
  // `multipleOfPrecision`: a price's `multipleOf: 0.01` holds for 89.99 although 89.99 / 0.01 is not exactly an integer in floating point.
  readonly #ajv = new Ajv2020({ allErrors: true, strict: false, multipleOfPrecision: 9 })
  readonly #validators = new Map<object, ValidateFunction>()

  constructor(doc: Json) {
    this.#doc = doc
    addFormats(this.#ajv)
    this.#paths = []
    for (const [template, item] of Object.entries<Json>(doc.paths)) {
      for (const server of (item.servers ?? doc.servers ?? [{ url: '/' }]) as Json[]) {
        const base = new URL(server.url, 'http://relative.invalid').pathname.replace(/\/$/, '')
        const source = `${base}${template}`
          .split(/\{[^}]+\}/)
          .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')
        this.#paths.push({ template, pattern: new RegExp(`^${source}$`), item, params: (template.match(/\{/g) ?? []).length })
      }
    }
    // Literal segments win over parameters, as in the router.
    this.#paths.sort((a, b) => a.params - b.params)
  }

  /** A readable account of how the reply departs from the document, or `undefined` when it matches. */
  problem(method: string, url: string, reply: ObservedReply): string | undefined {
    const pathname = new URL(url).pathname
    const where = `${method} ${pathname} answered ${reply.status}`
    // A CORS preflight is the server's answer on any URL (D27), documented or not.
    if (method === 'OPTIONS' && reply.status === 204) return undefined
    if (reply.status === 431) return this.#against(this.#unrouted('HeadersTooLarge'), reply, where, 'HeadersTooLarge')
    const found = this.#paths.find((path) => path.pattern.test(pathname))
    if (!found) return this.#against(this.#unrouted('UnknownRoute'), reply, `${where}, but no documented path matches it`, 'UnknownRoute', method === 'HEAD')
    if (method === 'OPTIONS') return undefined
    const operation: Json | undefined = found.item[method === 'HEAD' ? 'get' : method.toLowerCase()]
    if (!operation)
      return this.#against(this.#unrouted('MethodNotAllowed'), reply, `${where} on ${found.template}, which does not document ${method}`, 'MethodNotAllowed', method === 'HEAD')
    if (operation['x-undocumented']) return undefined
    const documented = operation.responses[String(reply.status)] ?? operation.responses[`${String(reply.status)[0]}XX`] ?? operation.responses.default
    const label = `${where} (operation ${operation.operationId})`
    if (!documented) return `${label}, but the document allows only ${Object.keys(operation.responses).join(', ')}.\n  body: ${excerpt(reply.text)}`
    return this.#against(this.#resolve(documented), reply, label, operation.operationId, method === 'HEAD')
  }

  #against(response: Json, reply: ObservedReply, label: string, name: string, headOnly = false): string | undefined {
    const problems: string[] = []
    const expectedStatus = name === 'UnknownRoute' ? 404 : name === 'MethodNotAllowed' ? 405 : reply.status
    if (reply.status !== expectedStatus) problems.push(`status ${reply.status}, expected ${expectedStatus}`)
    for (const [header, reference] of Object.entries<Json>(response.headers ?? {})) {
      if (this.#resolve(reference).required && !reply.headers.has(header)) problems.push(`header ${header} is missing`)
    }
    const schema = response.content?.['application/json']?.schema as Json | undefined
    // A documented media type other than JSON (the events stream): the text is held to its schema.
    const other = Object.entries<Json>(response.content ?? {}).find(([type]) => type !== 'application/json' && (reply.headers.get('content-type') ?? '').startsWith(type))
    if (headOnly) {
      // HEAD answers carry no body.
    } else if (!schema && other) {
      const validate = this.#validator(other[1].schema as Json)
      if (!validate(reply.text)) problems.push(`${other[0]} body ${(validate.errors ?? []).map((error) => error.message).join(', ')}`)
    } else if (!schema) {
      if (reply.text !== '') problems.push(`a body where none is documented: ${excerpt(reply.text)}`)
    } else if (!/json/.test(reply.headers.get('content-type') ?? '')) {
      problems.push(`content-type ${reply.headers.get('content-type')}, expected JSON`)
    } else {
      const validate = this.#validator(schema)
      if (!validate(reply.body))
        problems.push(
          ...(validate.errors ?? []).map(
            (error) => `body${error.instancePath} ${error.message}${error.params && 'additionalProperty' in error.params ? ` (${error.params.additionalProperty})` : ''}`,
          ),
        )
    }
    if (problems.length === 0) return undefined
    const shown = problems.length > 8 ? [...problems.slice(0, 8), `… and ${problems.length - 8} more`] : problems
    return `Reply does not match the OpenAPI document: ${label}\n  - ${shown.join('\n  - ')}\n  body: ${excerpt(reply.text)}`
  }

  #validator(schema: Json): ValidateFunction {
    let validate = this.#validators.get(schema)
    if (!validate) {
      // `#/components/...` references resolve inside the compiled schema's root.
      validate = this.#ajv.compile({ ...schema, components: this.#doc.components })
      this.#validators.set(schema, validate)
    }
    return validate
  }

  /** One of the answers of no operation (`x-unrouted-responses`). */
  #unrouted(name: 'UnknownRoute' | 'MethodNotAllowed' | 'HeadersTooLarge'): Json {
    const response = this.#doc['x-unrouted-responses']?.[name] as Json | undefined
    if (!response) throw new Error(`The document has no x-unrouted-responses.${name}.`)
    return this.#resolve(response)
  }

  #resolve(value: Json): Json {
    if (typeof value.$ref !== 'string') return value
    const target = value.$ref
      .slice(2)
      .split('/')
      .reduce<Json | undefined>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.#doc)
    if (!target) throw new Error(`The document refers to ${value.$ref}, which it does not contain.`)
    return this.#resolve(target)
  }
}

function excerpt(text: string): string {
  return text.length > 400 ? `${text.slice(0, 400)}…` : text || '(empty)'
}
