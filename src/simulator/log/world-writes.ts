import { ApiError } from '../../kernel/errors/api-error.js'
import { errorResponse } from '../../kernel/errors/error-response.js'
import type { Reply } from '../../kernel/http/reply.js'
import type { SimRequest } from '../../kernel/http/sim-request.js'
import type { AnswerOptions } from '../../kernel/routing/answer.js'
import type { Dispatcher } from '../../kernel/routing/dispatcher.js'
import type { RouteInput } from '../../kernel/routing/route.js'
import { applyRoute, prepareRoute } from '../../kernel/routing/run-route.js'
import type { World } from '../../world/world.js'
import { type Command, commandRequest, isCommand, type RouteDispatch } from './command.js'
import { keptBody } from './command-body.js'
import { documentSeeds, refuseManyPasswords, sealCommand } from './command-seal.js'
import { SealedPassword } from '../../kernel/crypto/sealed-password.js'
import { passwordSalt } from '../../world/world.js'
import type { CommandLog } from './command-log.js'
import { CONTROL_AREA } from '../simulator.js'
import type { WorldLock } from '../worlds/world-lock.js'
import type { FaultDecision, FaultInjector } from '../faults/faults.js'

/** A write this process accepted: its route and its prepared input, applied as they are (nothing parsed again). */
export interface OwnWrite {
  dispatch: RouteDispatch
  input: RouteInput<unknown, unknown, unknown>
}

/** What one world's writes work on. */
export interface WorldWritesParts {
  worldId: string | null
  world: World
  lock: WorldLock
  /** The world's route table (made after these parts). */
  dispatcher: () => Dispatcher
  /** The family's order of commands. */
  log: CommandLog<OwnWrite>
  /** Where an accepted command's instant comes from (the family's source clock). */
  now: () => number
  answerOptions: AnswerOptions
  /** Seeds a world of the family may be seeded with (the option's, the scenarios'): a password is sealed for each. */
  seeds: readonly number[]
  /** The family's sealed passwords by token, while their command is applied (what the worlds' password hashers read). */
  sealed: Map<string, SealedPassword>
  faults: FaultInjector
}

/**
 * The writes of one world (issue 33): a write is prepared where it arrives (a
 * bad request is answered at once and becomes nothing), then becomes a
 * `Command` that the family's `CommandLog` applies in its turn; applying runs
 * the route's own `guard` and `handle` on the world as it is then. Commands
 * other replicas made (or a replayed log) are applied the same way, from their
 * kept text.
 *
 * @example
 * const writes = new WorldWrites(parts)
 * const reply = await writes.write(dispatch, request)
 */
export class WorldWrites {
  readonly #parts: WorldWritesParts

  constructor(parts: WorldWritesParts) {
    this.#parts = parts
  }

  /** Prepares a write, then has the log apply it in its turn; the answer is what applying it answered. */
  async write(dispatch: RouteDispatch, request: SimRequest): Promise<Reply> {
    const { lock, log, answerOptions } = this.#parts
    const control = dispatch.mount.area === CONTROL_AREA
    let reply: Reply
    try {
      let input: RouteInput<unknown, unknown, unknown>
      if (control) {
        await lock.idle()
        input = await this.#prepare(dispatch, request)
      } else {
        // Its checks read the world: inside it, as any request, letting go while the body arrives.
        const waiting = lock.enter()
        if (waiting) await waiting
        try {
          input = await this.#prepare(dispatch, request, lock.hold)
        } finally {
          lock.leave()
        }
      }
      // A control document (a state, a world's scenario) may list many users: their passwords are sealed, each at a cost.
      if (control) refuseManyPasswords(input.body, true)
      let command: Command = { world: this.#parts.worldId, method: dispatch.route.method, url: request.url, at: this.#parts.now() }
      const body = keptBody(dispatch.route, input)
      if (body !== undefined) command.body = body
      // Stored commands never hold a password in clear; this process applies the sealed form too, as every replica does.
      if (log.stores) command = await this.seal(command, input.body)
      reply = await log.submit(command, { dispatch, input })
    } catch (error) {
      reply = errorResponse(error, (internal) => answerOptions.onInternalError?.(internal, request))
    }
    answerOptions.answered?.(request, reply)
    return reply
  }

  /**
   * `command` with its passwords sealed, as a store or a bundle keeps it (a
   * command sealed already is kept as it is); `parsed`: the validated input
   * its body is the text of, when at hand. A history in memory keeps
   * commands as they came; a bundle seals them when it is taken.
   */
  seal(command: Command, parsed?: unknown): Promise<Command> {
    if (command.sealed !== undefined || command.body === undefined) return Promise.resolve(command)
    const { world, seeds } = this.#parts
    const dispatch = this.#parts.dispatcher().dispatch(command)
    // A control document holds passwords per section and user, and the seeds of the worlds they may be hashed in.
    const document = dispatch?.kind === 'route' && dispatch.mount.area === CONTROL_AREA
    // Worked out only for a body that holds a password, once for all of them.
    let salts: string[] | undefined
    const saltsFor = (body: string) => (salts ??= [world.seed, ...seeds, ...(document ? documentSeeds(JSON.parse(body)) : [])].map(passwordSalt))
    return sealCommand(command, document, (password) => world.passwords.seal(password, saltsFor(command.body!)), parsed)
  }

  /** Applies a command to this world (the log's turn has come): `own` as prepared here, else from its kept text. */
  async apply(command: Command, own: OwnWrite | undefined): Promise<Reply> {
    const { lock, answerOptions } = this.#parts
    const dispatch = own?.dispatch ?? this.#parts.dispatcher().dispatch(command)
    if (dispatch === undefined || dispatch.kind === 'error') return errorResponse(dispatch?.error)
    // A kept command read back (a store, a bundle) is input: only a write is ever applied as one.
    if (!isCommand(dispatch)) return errorResponse(new ApiError(400, 'validation_failed', `${command.method} ${new URL(command.url).pathname} changes no world: it is no command.`))
    const control = dispatch.mount.area === CONTROL_AREA
    // A command whose body was sealed is applied from its kept text, here too: every replica reads the same body.
    const prepared = command.sealed === undefined ? own?.input : undefined
    const request = prepared?.request ?? commandRequest(command)
    if (control) {
      const pending = lock.idle()
      if (pending) await pending
    } else {
      const waiting = lock.enter()
      if (waiting) await waiting
    }
    const sealed = Object.entries(command.sealed ?? {})
    for (const [token, text] of sealed) this.#parts.sealed.set(token, new SealedPassword(text))
    let reply: Reply
    try {
      const input = prepared ?? (await this.#replayed(dispatch, request))
      reply = await applyRoute(dispatch.route, input)
    } catch (error) {
      reply = errorResponse(error, (internal) => answerOptions.onInternalError?.(internal, request))
    } finally {
      if (!control) lock.leave()
      for (const [token] of sealed) this.#parts.sealed.delete(token)
    }
    // Another replica's write (or a replayed one) changed this world too: its listeners hear of it.
    if (own === undefined) answerOptions.answered?.(request, reply)
    return reply
  }

  /** A `fault` command: what this world's rules decide for its request, as every replica decides it (`null`: nothing). */
  decideFault(command: Command): Reply {
    const dispatch = this.#parts.dispatcher().dispatch(command)
    const decision = dispatch?.kind === 'route' ? this.#parts.faults.decideRules(command.method, dispatch) : undefined
    return { status: 200, headers: {}, body: JSON.stringify(decision ?? null) }
  }

  /**
   * The fault for a request: decided here, unless replicas share the world and
   * a rule could fire, when the rules decide in the log's order (a command) so
   * a rule's `times` and draws count across replicas as in one process.
   */
  fault(request: SimRequest, dispatch: RouteDispatch): FaultDecision | undefined | Promise<FaultDecision | undefined> {
    const { faults, log } = this.#parts
    if (!log.shared || !faults.mayFire(request.method, dispatch)) return faults.decide(request, dispatch)
    const command: Command = { world: this.#parts.worldId, method: request.method, url: request.url, at: this.#parts.now(), kind: 'fault' }
    return log.submit(command, undefined).then((reply) => faults.prefer(reply.body ? (JSON.parse(reply.body) ?? undefined) : undefined, request.headers.get('prefer'), dispatch))
  }

  #prepare(dispatch: RouteDispatch, request: SimRequest, hold?: WorldLock['hold']): Promise<RouteInput<unknown, unknown, unknown>> {
    return prepareRoute(dispatch.route, request, dispatch.url, dispatch.params, this.#parts.answerOptions.bodyLimit ?? this.#parts.world.limits.bodyBytes, { hold })
  }

  /** A command from its kept text: checked as it was when accepted (but its caller's token, checked then). */
  #replayed(dispatch: RouteDispatch, request: SimRequest): Promise<RouteInput<unknown, unknown, unknown>> {
    return prepareRoute(dispatch.route, request, dispatch.url, dispatch.params, Number.POSITIVE_INFINITY, { trusted: true })
  }
}
