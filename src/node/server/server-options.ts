import * as z from 'zod'
import { integerText, option } from '../../kernel/options/option-meta.js'
import { parseDuration } from '../../kernel/time/sim-clock.js'
import { type SimulatorOptions, simulatorOptionsSchema } from '../../simulator/options.js'
import { type AreaId, areaIdSchema } from '../../areas/registry.js'
import { DISPATCH_MODES, type DispatchMode } from './fast-path.js'
import { DEFAULT_PROXY_TIMEOUT } from '../proxy/proxy-targets.js'
import { corsOriginProblem } from '../gate/cors.js'
import { allowedHostProblem } from '../gate/host-policy.js'

/** Default `headersTimeout`: a client gets this long to send the request line and headers. */
export const DEFAULT_HEADERS_TIMEOUT = 10_000

/** Default `requestTimeout`: a client gets this long to send a whole request, body included. */
export const DEFAULT_REQUEST_TIMEOUT = 30_000

/** Where `--control-token` is read from when the flag is not given (keeps it out of `ps` listings). */
export const CONTROL_TOKEN_ENV = 'MULTI_AREA_MOCK_CONTROL_TOKEN'

/** Where `--store` is read from when the flag is not given: a URL with a password stays out of `ps`. */
export const STORE_ENV = 'MULTI_AREA_MOCK_STORE'

const PORT = 'expected an integer from 0 to 65535'
const TIMEOUT = 'expected a duration from 1ms to 24h, such as 10s or 500 (ms)'
const timeout = () => z.int(TIMEOUT).min(1, TIMEOUT).max(86_400_000, TIMEOUT)
const REPLAY_UNTIL = 'expected a command number, an integer of 1 or more'
const CONTROL_TOKEN = 'expected 1 to 4096 printable ASCII characters without spaces'

const corsOrigin = () => z.string().superRefine((value, ctx) => refine(ctx, corsOriginProblem(value)))
const allowedHost = () => z.string().superRefine((value, ctx) => refine(ctx, allowedHostProblem(value)))
const refine = (ctx: z.RefinementCtx, problem: string | undefined) => {
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem })
}

/**
 * The options of `startServer`: the simulator's (`createSimulator`) and the
 * server's own, one schema; `multi-area-mock serve`'s flags are the options
 * that name one.
 */
export const serverOptionsSchema = z.object(
  {
    /** Default 4000; 0 picks a free port (D27). */
    port: option(z.int(PORT).min(0, PORT).max(65535, PORT).default(4000), {
      cli: { flag: '-p, --port <port>', description: 'port to listen on; 0 picks a free one', fromText: integerText, group: 'start' },
    }),
    /** Default `127.0.0.1`: not reachable from other machines unless asked (D27). */
    host: option(z.string('expected a host name or address').min(1, 'expected a host name or address').default('127.0.0.1'), {
      cli: { flag: '-H, --host <host>', description: 'interface to bind; use 0.0.0.0 to accept other machines (then consider --control-token)', group: 'start' },
    }),
    /**
     * When set, every `/__mock/*` request must carry `Authorization: Bearer <controlToken>`
     * (401 otherwise): for a server other machines can reach (`host: '0.0.0.0'`).
     */
    controlToken: option(
      z
        .string(CONTROL_TOKEN)
        .regex(/^[\x21-\x7e]{1,4096}$/, CONTROL_TOKEN)
        .optional(),
      {
        secret: true,
        cli: { flag: '--control-token <token>', description: 'require "Authorization: Bearer <token>" on every /__mock request', env: CONTROL_TOKEN_ENV, group: 'network' },
      },
    ),
    /**
     * Web origins, besides loopback ones on any port and the server's own, whose
     * pages may call the server (D27, docs/security.md): `https://app.example.com`,
     * `null`, or `*` for every origin (then without credentials).
     */
    corsOrigins: option(z.array(corsOrigin(), 'expected a list of origins').optional(), {
      cli: {
        flag: '--cors-origin <origin>',
        description: 'also let pages from this origin call the server, e.g. https://app.example.com (repeatable; "*" allows every origin, without credentials)',
        repeatable: true,
        group: 'network',
      },
    }),
    /**
     * `Host` names answered besides localhost, `*.localhost`, IP addresses and
     * the bound host (D27, against DNS rebinding): `mock.test`, `.mock.test` for
     * it and every name under it, or `*` for all.
     */
    allowedHosts: option(z.array(allowedHost(), 'expected a list of host names').optional(), {
      cli: {
        flag: '--allowed-host <host>',
        description: 'also answer requests for this host name, e.g. mock.test or .mock.test for all under it (repeatable; "*" allows every host)',
        repeatable: true,
        group: 'network',
      },
    }),
    /** Milliseconds a client may take to send the request line and headers (default 10 s); then 408 and the connection is closed. */
    headersTimeout: option(timeout().default(DEFAULT_HEADERS_TIMEOUT), {
      cli: {
        flag: '--headers-timeout <duration>',
        description: 'time a client may take to send the request line and headers, then 408',
        defaultText: `${DEFAULT_HEADERS_TIMEOUT / 1000}s`,
        fromText: parseDuration,
        group: 'network',
      },
    }),
    /** Milliseconds a client may take to send a whole request, body included (default 30 s, or the headers timeout if longer); then 408 and the connection is closed. */
    requestTimeout: option(timeout().optional(), {
      cli: {
        flag: '--request-timeout <duration>',
        description: `time a client may take to send a whole request, body included, then 408 (default: ${DEFAULT_REQUEST_TIMEOUT / 1000}s, or the headers timeout if longer)`,
        fromText: parseDuration,
        group: 'network',
      },
    }),
    ...simulatorOptionsSchema.shape,
    /**
     * How requests reach the simulator (default `'fast'`): `'fast'` answers
     * Node's request from the route table without any Fetch object, `'msw'`
     * goes through msw's `getResponse` over `simulator.handlers`. Both answer
     * identically (src/node/server/dispatch-paths.test.ts); bench/README.md has the figures.
     */
    // The default (the first mode) was chosen by the benchmark (bench/README.md).
    dispatch: option(z.enum(DISPATCH_MODES, `expected one of ${DISPATCH_MODES.join(', ')}`).default(DISPATCH_MODES[0]), {
      cli: {
        flag: '--dispatch <mode>',
        description: 'how requests reach the routes: "fast" (Node\'s request straight to the route table) or "msw" (getResponse over the msw handlers)',
        group: 'network',
      },
    }),
    /**
     * Areas whose requests go to a real backend instead (docs/proxy.md): the
     * path under the area's prefix is appended to the URL, the answer streams
     * back unchanged; faults, latency and the journal still apply. Each URL is
     * checked by `proxyTargets` (absolute http(s), no query), before listening.
     * `{ admin: 'https://users.example.com/api' }`.
     */
    proxy: z.partialRecord(areaIdSchema, z.string('expected a URL such as https://users.example.com/api').optional()).optional(),
    /** Milliseconds a proxied area's upstream may stay silent before a 504 `gateway_timeout` (default 30 s). */
    proxyTimeout: option(timeout().default(DEFAULT_PROXY_TIMEOUT), {
      cli: {
        flag: '--proxy-timeout <duration>',
        description: 'time a proxied upstream may stay silent, then 504 gateway_timeout',
        defaultText: `${DEFAULT_PROXY_TIMEOUT / 1000}s`,
        fromText: parseDuration,
        group: 'network',
      },
    }),
    /**
     * Keep the default world in this JSON file (`serve --state-file`): loaded at
     * start if it exists (refused with a `ConfigError` if invalid, and left as it
     * is); every change is appended to `<file>.log` before it is answered, and
     * folded into the file now and then and on `close()`.
     */
    stateFile: option(z.string('expected a file path').min(1, 'expected a file path').optional(), {
      cli: {
        flag: '--state-file <path>',
        description:
          'keep the default world in this JSON file: loaded at start if it exists (an invalid file is refused and left as it is); each change is on disk (<path>.log) before it is answered',
        group: 'files',
      },
    }),
    /**
     * Record what the proxied areas' real backends answer into a scenario file
     * (`serve --proxy admin=… --record recorded.json`): written on
     * `POST /__mock/recording/save` and when the server closes; load it later
     * with `--scenario recorded.json`. Needs `proxy`.
     */
    record: option(z.string('expected a file path').min(1, 'expected a file path').optional(), {
      cli: {
        flag: '--record <file>',
        description: "record what the proxied areas' backends answer into a scenario file, written on POST /__mock/recording/save and when the server stops (needs --proxy)",
        group: 'files',
      },
    }),
    /**
     * Start with the world of a bundle (`serve --replay mock-world.json`, a saved
     * `GET /__mock/bundle`), byte for byte: the simulator is made from the
     * bundle's options, its world restored as the default world and its commands
     * applied in order; the clock then stands still where the world's stood. The
     * server's own options still apply (port, host, control token, CORS,
     * timeouts, dispatch, proxy, log) and so does a secret one (`auth.secret`,
     * which a bundle never holds); any other simulator option is refused (the
     * world comes from the bundle), and so are `stateFile` and `store`. A bundle
     * that does not replay to its world (another version, a changed file) is
     * refused with a `ConfigError`.
     */
    replay: option(z.string('expected a file path').min(1, 'expected a file path').optional(), {
      cli: {
        flag: '--replay <bundle.json>',
        description:
          'start with the world of a bundle (saved from GET /__mock/bundle) exactly as it stood when it was taken; the world options (seed, clock, scenario…) come from the bundle',
        group: 'files',
      },
    }),
    /** With `replay`: stop before command `replayUntil` (counting from 1): the world as it stood when that command arrived. */
    replayUntil: option(z.int(REPLAY_UNTIL).min(1, REPLAY_UNTIL).optional(), {
      cli: {
        flag: '--replay-until <n>',
        description: 'with --replay: apply only the commands before command n (from 1), the world as it stood when command n arrived',
        fromText: integerText,
        group: 'files',
      },
    }),
    /**
     * Share every world with the other replicas started with the same store and
     * options (`serve --store redis://host:port[/db]`): each change is a command
     * in a Redis stream, applied by every replica in the stream's order; a read
     * first applies what others wrote. Needs `@redis/client` installed.
     */
    store: option(z.string('expected a URL such as redis://127.0.0.1:6379').min(1, 'expected a URL such as redis://127.0.0.1:6379').optional(), {
      // It may hold Redis's password: never printed back, and readable from the environment (out of `ps`).
      secret: true,
      cli: {
        flag: '--store <url>',
        description: 'share every world with the replicas started with the same store and options: redis://host:port[/db] (needs npm i -D @redis/client)',
        env: STORE_ENV,
        group: 'files',
      },
    }),
    /** Receives one line per request (`GET /core/users 200 0.4ms`); omit for silence. */
    log: z.custom<(line: string) => void>((value) => typeof value === 'function', 'expected a function').optional(),
  },
  'expected an object of options',
)

/**
 * The options of `startServer`: the simulator's (`SimulatorOptions`) and the
 * server's own, every field optional, checked by `serverOptionsSchema`. Named
 * here, not derived with `z.input`, so the API report and editors show it by
 * name; server-options.types.test.ts holds it equal to the schema's input type.
 *
 * @example
 * const options: ServerOptions = { port: 0, scenario: 'empty', proxy: { admin: 'https://users.example.com/api' } }
 * const running = await startServer(options)
 */
export type ServerOptions = SimulatorOptions & {
  /** Default 4000; 0 picks a free port (D27). */
  port?: number | undefined
  /** Default `127.0.0.1`: not reachable from other machines unless asked (D27). */
  host?: string | undefined
  /** When set, every `/__mock/*` request must carry `Authorization: Bearer <controlToken>` (401 otherwise). */
  controlToken?: string | undefined
  /** Web origins, besides loopback ones and the server's own, whose pages may call the server: `https://app.example.com`, `null`, or `*`. */
  corsOrigins?: string[] | undefined
  /** `Host` names answered besides localhost, `*.localhost`, IP addresses and the bound host: `mock.test`, `.mock.test`, or `*`. */
  allowedHosts?: string[] | undefined
  /** Milliseconds a client may take to send the request line and headers (default 10 s); then 408. */
  headersTimeout?: number | undefined
  /** Milliseconds a client may take to send a whole request (default 30 s, or the headers timeout if longer); then 408. */
  requestTimeout?: number | undefined
  /** How requests reach the simulator: `'fast'` (default, straight to the route table) or `'msw'` (msw's `getResponse`). */
  dispatch?: DispatchMode | undefined
  /** Areas whose requests go to a real backend instead (docs/proxy.md): `{ admin: 'https://users.example.com/api' }`. */
  proxy?: Partial<Record<AreaId, string | undefined>> | undefined
  /** Milliseconds a proxied area's upstream may stay silent before a 504 `gateway_timeout` (default 30 s). */
  proxyTimeout?: number | undefined
  /** Keep the default world in this JSON file: loaded at start if it exists; each change is in `<file>.log` before it is answered. */
  stateFile?: string | undefined
  /** Record what the proxied areas' backends answer into this scenario file (needs `proxy`). */
  record?: string | undefined
  /** Start with the world of a bundle (a saved `GET /__mock/bundle`), byte for byte; the world options come from the bundle. */
  replay?: string | undefined
  /** With `replay`: stop before command `replayUntil` (counting from 1). */
  replayUntil?: number | undefined
  /** Share every world with the replicas started with the same store and options: `redis://host:port[/db]`. */
  store?: string | undefined
  /** Receives one line per request (`GET /core/users 200 0.4ms`); omit for silence. */
  log?: ((line: string) => void) | undefined
}
