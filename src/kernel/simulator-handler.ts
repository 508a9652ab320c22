import { RequestHandler, type ResponseResolver } from 'msw'
import { type AnswerOptions, answer } from './answer.js'
import type { Dispatch, Dispatcher } from './dispatcher.js'


interface HandlerInfo {
  header: string
}

/**
 * The one msw request handler behind a simulator. Instead of one `http.*`
 * handler per route (which msw tries one by one, ~12 µs each), it asks the
 * compiled `Dispatcher`, so adding routes or areas costs nothing per request.
 * Being a real msw handler, it works with `setupServer`, `setupWorker` and
 * `getResponse`, and `server.use(...)` overrides placed before it still win.
 *
 * @example
 * setupServer(new SimulatorHandler(dispatcher, 'multi-area-mock', { before: () => loading }))
 */
export class SimulatorHandler extends RequestHandler<HandlerInfo, Dispatch | undefined, { dispatch: Dispatch }> {
  readonly #dispatcher: Dispatcher

  constructor(dispatcher: Dispatcher, header: string, options: AnswerOptions = {}) {
    const resolver: ResponseResolver<{ dispatch: Dispatch }> = ({ request, dispatch }) => answer(dispatch, request, options)
    super({ info: { header }, resolver })
    this.#dispatcher = dispatcher
  }

  override async parse(args: { request: Request }): Promise<Dispatch | undefined> {
    return this.#dispatcher.dispatch(args.request)
  }

  predicate(args: { parsedResult: Dispatch | undefined }): boolean {
    return args.parsedResult !== undefined
  }

  protected override extendResolverArgs(args: { parsedResult: Dispatch | undefined }): { dispatch: Dispatch } {
    return { dispatch: args.parsedResult! }
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
