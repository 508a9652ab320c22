import { RequestHandler, type RequestHandlerOptions, type ResponseResolver } from 'msw'

interface HandlerInfo {
  header: string
}

/**
 * How a simulator answers: `route` claims a request (or returns `undefined` to
 * leave it to other handlers) without reading its body; `answer` then produces
 * the response for what `route` found.
 */
// biome-ignore lint/suspicious/noExplicitAny: msw's RequestHandler constrains parsed results to Record<string, any>
export interface RequestRouter<Found extends Record<string, any>> {
  route(request: Request): Found | undefined
  answer(found: Found, request: Request): Promise<Response>
}

/**
 * The one msw request handler behind a simulator. Instead of one `http.*`
 * handler per route (which msw tries one by one), it asks the simulator's
 * compiled route table, so adding routes or areas costs nothing per request.
 *
 * It is built as msw's own `HttpHandler` is, on `RequestHandler`'s public
 * extension points only: `parse` finds the route, `predicate` claims the
 * request when there is one, `extendResolverArgs` hands it to the resolver,
 * which answers, and `log` prints the answer. msw's own `run` drives them, so
 * whatever it does around them in any msw version (the request clone kept for
 * logging, `once`, cookies of `HttpResponse` answers) holds here too. It works with `setupServer`, `setupWorker` and `getResponse`, and
 * `server.use(...)` overrides placed before it still win.
 *
 * @example
 * setupServer(new SimulatorHandler({ route: (r) => dispatcher.dispatch(r), answer: (d, r) => answer(d, r, {}) }, 'multi-area-mock'))
 */
// biome-ignore lint/suspicious/noExplicitAny: msw's RequestHandler constrains parsed results to Record<string, any>
export class SimulatorHandler<Found extends Record<string, any>> extends RequestHandler<HandlerInfo, Found | undefined, { found: Found }> {
  readonly #router: RequestRouter<Found>

  /** `options`: msw's handler options, passed on as they are (`{ once: true }`). */
  constructor(router: RequestRouter<Found>, header: string, options?: RequestHandlerOptions) {
    const resolver: ResponseResolver<{ found: Found }> = ({ request, found }) => router.answer(found, request)
    super({ info: { header }, resolver, ...(options === undefined ? {} : { options }) })
    this.#router = router
  }

  /** The route of `request` in the simulator's table, from its method and URL only (the body stays unread). */
  override async parse(args: { request: Request }): Promise<Found | undefined> {
    return this.#router.route(args.request)
  }

  /** Claims the request when `parse` found a route; leaves it to the next handler otherwise. */
  predicate(args: { parsedResult: Found | undefined }): boolean {
    return args.parsedResult !== undefined
  }

  /** What the resolver gets besides msw's own arguments: the route `parse` found (always set: `predicate` held). */
  protected override extendResolverArgs(args: { parsedResult: Found | undefined }): { found: Found } {
    return { found: args.parsedResult! }
  }

  /**
   * One collapsed console group per answered request, like msw's own handlers
   * (msw calls it in the browser only, with its clone of the request and a
   * clone of the response, and not at all with `quiet`).
   */
  async log(args: { request: Request; response: Response }): Promise<void> {
    const { request, response } = args
    const [requestBody, responseBody] = await Promise.all([readBody(request), readBody(response)])
    const time = new Date().toTimeString().slice(0, 8)
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
    console.groupCollapsed(`[MSW] ${time} ${request.method} ${publicUrl(request.url)} (%c${status}%c)`, `color:${statusColor(response.status)}`, 'color:inherit')
    console.log('Request', { url: request.url, method: request.method, headers: Object.fromEntries(request.headers), body: requestBody })
    console.log('Handler:', this.info.header)
    console.log('Response', { status: response.status, headers: Object.fromEntries(response.headers), body: responseBody })
    console.groupEnd()
  }
}

/** The URL as msw prints it: without the origin when it is the page's own. */
function publicUrl(url: string): string {
  const parsed = new URL(url)
  return parsed.origin === globalThis.location?.origin ? `${parsed.pathname}${parsed.search}` : url
}

/** msw's colours: green for 2xx, amber for 3xx, red otherwise. */
function statusColor(status: number): string {
  if (status < 300) return '#69AB32'
  if (status < 400) return '#F0BB4B'
  return '#E95F5D'
}

/** A logged body: parsed JSON where it is JSON, else text; never throws. */
async function readBody(message: Request | Response): Promise<unknown> {
  // An event stream never ends: reading it would hold every event; cancelling the clone frees it.
  if ((message.headers.get('content-type') ?? '').includes('text/event-stream')) {
    await message.body?.cancel().catch(() => undefined)
    return '(event stream)'
  }
  try {
    const text = await message.text()
    if (text === '') return undefined
    return (message.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text
  } catch {
    return '(unreadable)'
  }
}
