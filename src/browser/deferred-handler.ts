import { isCommonAssetRequest, RequestHandler, type ResponseResolver } from 'msw'
import type { RequestRouter } from '../simulator/pipeline/simulator-handler.js'

/** The simulator once it is loaded: what routes and answers, and the handler that prints its console groups. */
export interface LoadedRouter<Found extends object> {
  router: RequestRouter<Found>
  /** The simulator's own msw handler (`simulator.handlers[0]`): its `log` prints the console group. */
  logger: Pick<RequestHandler, 'log' | 'info'>
}

// biome-ignore lint/suspicious/noExplicitAny: msw's RequestHandler constrains parsed results to Record<string, any>
type Parsed<Found extends object> = (Found & Record<string, any>) | undefined

/**
 * The simulator's msw handler before the simulator exists, so msw's worker
 * can register while the simulator is still loading and seeding (the two used
 * to run one after the other). A request it sees waits until `loading`
 * resolves (the world seeded or restored), then is routed and answered exactly
 * as the simulator's own handler (`SimulatorHandler`) answers it, on the same
 * extension points of msw's `RequestHandler`, and printed by it. Until then,
 * requests for scripts, styles, fonts and media (msw's `isCommonAssetRequest`
 * but data files: `.json`, `.txt`, `.csv`, `.xml`, `.md`, which a route may
 * answer, such as `/__mock/openapi.json`) go past it untouched: the simulator's own chunks are among them, and holding
 * those would wait forever. It imports nothing of the simulator but types, so
 * the code an app loads before the worker starts shares no chunk with it.
 *
 * @example
 * const worker = setupWorker(new DeferredSimulatorHandler(loading.then(({ simulator }) => ({ router: simulator.router, logger: simulator.handlers[0] }))))
 */
export class DeferredSimulatorHandler<Found extends object> extends RequestHandler<{ header: string }, Parsed<Found>, { found: Found }> {
  readonly #loaded: Promise<unknown>
  #current: LoadedRouter<Found> | undefined

  constructor(loading: Promise<LoadedRouter<Found>>) {
    // The resolver runs only for a request `parse` routed, so once the simulator is there.
    let answer: RequestRouter<Found>['answer'] | undefined
    const resolver: ResponseResolver<{ found: Found }> = ({ request, found }) => answer!(found, request)
    super({ info: { header: 'multi-area-mock' }, resolver })
    this.#loaded = loading.then((loaded) => {
      this.#current = loaded
      answer = (found, request) => loaded.router.answer(found, request)
      this.info.header = loaded.logger.info.header
    })
    // A simulator that fails to load is reported by startBrowserSimulator, which stops the worker.
    this.#loaded.catch(() => undefined)
  }

  /** Waits for the simulator, then finds the route from the method and URL only, as the simulator's own handler does. */
  override async parse(args: { request: Request }): Promise<Parsed<Found>> {
    if (this.#current === undefined && passesEarly(args.request)) return undefined
    if (this.#current === undefined) await this.#loaded
    return this.#current!.router.route(args.request) as Parsed<Found>
  }

  /** Claims the request when `parse` found a route; leaves it to the next handler otherwise. */
  predicate(args: { parsedResult: Parsed<Found> }): boolean {
    return args.parsedResult !== undefined
  }

  protected override extendResolverArgs(args: { parsedResult: Parsed<Found> }): { found: Found } {
    return { found: args.parsedResult! }
  }

  /** The simulator's own console group for the answered request (msw calls it in the browser only). */
  override log(args: { request: Request; response: Response; parsedResult: Parsed<Found> }): Promise<void> | void {
    return this.#current?.logger.log(args)
  }
}

/** Data files among msw's common assets: held like any request, since the simulator may answer them. */
const DATA_FILE = /\.(json|txt|csv|xml|md)$/i

/** Whether a request goes to the network while the simulator loads: the simulator's own chunks are among these. */
function passesEarly(request: Request): boolean {
  return isCommonAssetRequest(request) && !DATA_FILE.test(new URL(request.url).pathname)
}
