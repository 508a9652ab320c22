import { RequestHandler, type ResponseResolver } from 'msw'

interface HandlerInfo {
  header: string
}

/**
 * How a simulator answers: `route` claims a request (or returns `undefined` to
 * leave it to other handlers) without reading its body; `answer` then produces
 * the response for what `route` found.
 */
export interface RequestRouter<Found extends Record<string, any>> {
  route(request: Request): Found | undefined
  answer(found: Found, request: Request): Promise<Response>
}

/**
 * The one msw request handler behind a simulator. Instead of one `http.*`
 * handler per route (which msw tries one by one, ~12 µs each), it asks the
 * simulator's compiled route table, so adding routes or areas costs nothing per
 * request. Being a real msw handler, it works with `setupServer`, `setupWorker`
 * and `getResponse`, and `server.use(...)` overrides placed before it still win.
 *
 * @example
 * setupServer(new SimulatorHandler({ route: (r) => dispatcher.dispatch(r), answer: (d, r) => answer(d, r, {}) }, 'multi-area-mock'))
 */
export class SimulatorHandler<Found extends Record<string, any>> extends RequestHandler<HandlerInfo, Found | undefined, { found: Found }> {
  readonly #router: RequestRouter<Found>

  constructor(router: RequestRouter<Found>, header: string) {
    const resolver: ResponseResolver<{ found: Found }> = ({ request, found }) => router.answer(found, request)
    super({ info: { header }, resolver })
    this.#router = router
  }

  override async parse(args: { request: Request }): Promise<Found | undefined> {
    return this.#router.route(args.request)
  }

  predicate(args: { parsedResult: Found | undefined }): boolean {
    return args.parsedResult !== undefined
  }

  protected override extendResolverArgs(args: { parsedResult: Found | undefined }): { found: Found } {
    return { found: args.parsedResult! }
  }

  /** Browser console line in the style of msw's own handlers (setupWorker only). */
  log(args: { request: Request; response: Response }): void {
    const time = new Date().toTimeString().slice(0, 8)
    console.groupCollapsed(`[MSW] ${time} ${args.request.method} ${args.request.url} (${args.response.status})`)
    console.log('Handler:', this.info.header)
    console.log('Response:', args.response)
    console.groupEnd()
  }
}
