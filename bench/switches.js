// @ts-check
// Every environment switch and command-line flag of the bench scripts, in one table: the code reads them here, `node bench/run.js --help` prints it, bench/README.md quotes that print.

/**
 * How a raw value is read: `seconds` (> 0), `seconds0` (≥ 0), `count` (integer > 0),
 * `count0` (integer ≥ 0), `list` (comma-separated), `sizes` (comma-separated counts),
 * `on` (`1` or the flag: true), `off` (true unless `0`), `text`, `words` (split on
 * spaces), `flag` (present or not).
 *
 * @typedef {'seconds' | 'seconds0' | 'count' | 'count0' | 'list' | 'sizes' | 'on' | 'off' | 'text' | 'words' | 'flag'} Kind
 */
/**
 * @typedef {object} Switch
 * @property {string} name environment variable, flag (`--json`) or positional argument (`<users>`)
 * @property {Kind} kind
 * @property {string} used the scripts that read it
 * @property {string} meaning
 * @property {string} [flag] a command-line flag that sets the same (`--rounds`)
 * @property {number} [arg] for a positional argument: its index after the script's path
 * @property {unknown} [fallback] the default value, or a function of the other settings
 * @property {string} [shown] the default as the table shows it, where it is not the value itself
 * @property {string} [smoke] the value under BENCH_SMOKE=1, unless the switch is set
 */
/** @typedef {(name: string) => any} Get another switch's value, for a default that follows it */

const RUN = 'run.js'
const SCALE = 'scale.js'
const PROXY = 'proxy.js, recording.js'

/** @type {Switch[]} */
export const SWITCHES = [
  { name: '--help', kind: 'flag', used: RUN, meaning: 'print this table and stop (`--help --markdown`: the table alone, as bench/README.md quotes it)' },
  { name: '--markdown', kind: 'flag', used: RUN, meaning: 'with `--help`: only the Markdown table' },
  {
    name: 'BENCH_SMOKE',
    kind: 'on',
    fallback: false,
    used: 'all',
    meaning: '`1`: the shortest run that proves a script starts and prints; each switch below with a smoke value takes it unless set. Its figures mean nothing',
  },
  { name: 'BENCH_DURATION', kind: 'seconds', fallback: 10, smoke: '1', used: `${RUN}, ${SCALE}, ${PROXY}`, meaning: 'measured seconds per run (wrk `-d`)' },
  { name: 'BENCH_WARMUP', kind: 'seconds0', fallback: 3, smoke: '1', used: `${RUN}, ${SCALE}, ${PROXY}`, meaning: 'unrecorded warm-up seconds before each run (`0`: none)' },
  {
    name: 'BENCH_CONNECTIONS',
    kind: 'count',
    fallback: 50,
    smoke: '10',
    used: `${RUN}, ${SCALE}, ${PROXY}`,
    meaning: 'concurrent keep-alive connections (each side of a journal pair gets half)',
  },
  {
    name: 'BENCH_ROUNDS',
    flag: '--rounds',
    kind: 'count',
    fallback: 3,
    smoke: '1',
    used: RUN,
    meaning: 'rounds of every row on every server (also `--rounds N`); figures are medians',
  },
  {
    name: 'BENCH_ONLY',
    kind: 'list',
    fallback: [],
    shown: 'all',
    smoke: 'create',
    used: RUN,
    meaning: 'rows (bench/scenarios.js): `list,one,login,data,measure,entangle,status,create,delegate,eip191`',
  },
  { name: 'BENCH_MODES', kind: 'list', fallback: [], shown: 'all', smoke: 'fast', used: RUN, meaning: 'simulator variants: `msw,fast,nojournal`; the baseline always runs' },
  {
    name: 'BENCH_COMPARE',
    kind: 'text',
    used: RUN,
    meaning: "another build's `bin/multi-area-mock.js`: each variant also runs on it as `<variant>@other`, same run, same baseline",
  },
  {
    name: 'BENCH_SIGNATURES',
    kind: 'count',
    fallback: (/** @type {Get} */ get) => Math.ceil((get('BENCH_WARMUP') + get('BENCH_DURATION')) * 1500),
    shown: '(warm-up + duration) × 1500',
    used: RUN,
    meaning: 'signed delegations per round for the `eip191` row',
  },
  {
    name: 'BENCH_JOURNAL_PAIRS',
    kind: 'count0',
    fallback: 5,
    smoke: '0',
    used: RUN,
    meaning: 'side-by-side journal pairs per row (`0`: none; they need wrk, `fast` and `nojournal`)',
  },
  {
    name: 'BENCH_BATCHED_BASELINE',
    kind: 'off',
    fallback: true,
    shown: '1',
    smoke: '0',
    used: RUN,
    meaning: '`0`: leave out the second bare server, which ends answers at the end of each event-loop turn (information)',
  },
  {
    name: 'BENCH_TARGETS',
    kind: 'off',
    fallback: true,
    shown: '1',
    smoke: '0',
    used: RUN,
    meaning: '`0`: after the rounds, the HTTP targets only (no import time, per-test costs or scale)',
  },
  { name: '--targets', kind: 'flag', used: RUN, meaning: "instead of the rounds: issue 25's targets that need no wrk rounds (bench/targets.js)" },
  {
    name: 'BENCH_SCALE',
    flag: '--scale',
    kind: 'on',
    fallback: false,
    used: RUN,
    meaning: '`1` (or `--scale`): the scale figures instead of the rounds (bench/scale.js; needs wrk)',
  },
  {
    name: 'BENCH_SCALE_SIZES',
    kind: 'sizes',
    fallback: [1000, 100000],
    shown: '1000,100000',
    smoke: '100,200',
    used: SCALE,
    meaning: 'world sizes (generated users) for `--scale`',
  },
  {
    name: 'BENCH_SCALE_ROUNDS',
    kind: 'count',
    fallback: (/** @type {Get} */ get) => get('BENCH_ROUNDS'),
    shown: 'BENCH_ROUNDS, else 3',
    smoke: '1',
    used: SCALE,
    meaning: 'rounds for `--scale`, a fresh server per size and round',
  },
  { name: 'BENCH_SCALE_TARGET_ROUNDS', kind: 'count', fallback: 3, smoke: '1', used: 'scale-targets.js', meaning: 'fresh 100,000-user servers the scale targets are medians of' },
  { name: '--proxy', kind: 'flag', used: RUN, meaning: 'proxy overhead instead of the rounds (bench/proxy.js, also `npm run bench:proxy`)' },
  {
    name: '--record',
    kind: 'flag',
    used: RUN,
    meaning: 'recording overhead instead of the rounds: `--proxy` with and without `--record` (bench/recording.js, also `npm run bench:record`)',
  },
  { name: 'BENCH_PAIRS', kind: 'count0', fallback: 5, smoke: '1', used: PROXY, meaning: 'wrk pairs per endpoint: direct/proxied (proxy.js), proxied/recorded (recording.js)' },
  {
    name: '--bundle',
    kind: 'flag',
    used: RUN,
    meaning: 'world bundles instead of the rounds: size and time of `GET /__mock/bundle` and `serve --replay` (bench/bundle.js, `npm run bench:bundle`)',
  },
  { name: 'BENCH_BUNDLE_COMMANDS', kind: 'count', fallback: 10000, smoke: '200', used: 'bundle.js', meaning: 'commands the world receives before its bundle is taken' },
  { name: 'BENCH_BUNDLE_ROUNDS', kind: 'count', fallback: 5, smoke: '1', used: 'bundle.js', meaning: 'rounds of each pair (bundle/state, replay/plain start)' },
  { name: '--worlds', kind: 'flag', used: RUN, meaning: 'world create + delete instead of the rounds (bench/worlds.js, `npm run bench:worlds`)' },
  { name: 'BENCH_WORLDS', kind: 'count', fallback: 300, smoke: '20', used: 'worlds.js', meaning: 'measured create + delete pairs per row' },
  { name: 'BENCH_WORLDS_WARMUP', kind: 'count0', fallback: 30, smoke: '2', used: 'worlds.js', meaning: 'unmeasured pairs before them' },
  { name: 'BENCH_SUITE_COUNT', kind: 'count', fallback: 300, smoke: '20', used: 'test-suite.js', meaning: 'measured per-test rounds (reset, typical test, worlds)' },
  { name: 'BENCH_SUITE_WARMUP', kind: 'count0', fallback: 50, smoke: '2', used: 'test-suite.js', meaning: 'unmeasured rounds before them' },
  { name: 'BENCH_IMPORT_RUNS', kind: 'count', fallback: 15, smoke: '10', used: 'import-time.js', meaning: 'fresh processes of each kind for the import time (at least 10)' },
  {
    name: '--browser',
    kind: 'flag',
    used: RUN,
    meaning:
      'the browser row instead of the rounds: first simulated answer after navigation in Chromium, multi-area-mock/browser against a hand-written msw handler (bench/browser-start.js)',
  },
  {
    name: 'BENCH_BROWSER_PAIRS',
    kind: 'count',
    fallback: 15,
    smoke: '2',
    used: 'browser-start.js',
    meaning: 'pairs of fresh browser contexts (simulator page, msw page), after one not counted',
  },
  {
    name: 'BENCH_BROWSER_FROM',
    kind: 'text',
    fallback: 'dist',
    used: 'browser-start.js',
    meaning: '`dist`: the app bundles the built package; `src`: it bundles src/browser/index.ts (no build needed)',
  },
  {
    name: 'BENCH_BROWSER_FLOORS',
    kind: 'on',
    fallback: false,
    used: 'browser-start.js',
    meaning: '`1`: also the floor pages, the msw page awaiting zod, faker or both (what the stack costs before any of the simulator)',
  },
  {
    name: 'BENCH_BROWSER_COMPARE',
    kind: 'text',
    used: 'browser-start.js',
    meaning: "another build's repository (its `dist/` built): its browser entry is a page of the row too, `simulator-other`",
  },
  { name: '--ingest', kind: 'flag', used: RUN, meaning: 'ingestion memory instead of the rounds (bench/ingest-memory.js, also `npm run bench:ingest`)' },
  { name: 'INGEST_POINTS', kind: 'count', fallback: 2000000, smoke: '20000', used: 'ingest-memory.js', meaning: 'points sent in all' },
  { name: 'INGEST_BATCH', kind: 'count', fallback: 10000, smoke: '5000', used: 'ingest-memory.js', meaning: 'points per request' },
  { name: 'INGEST_SENSORS', kind: 'count', fallback: 50, used: 'ingest-memory.js', meaning: 'sensors, round-robin' },
  { name: 'INGEST_CONNECTIONS', kind: 'count', fallback: 2, used: 'ingest-memory.js', meaning: 'keep-alive connections' },
  { name: 'INGEST_SAMPLE_EVERY', kind: 'count', fallback: 100000, smoke: '5000', used: 'ingest-memory.js', meaning: "the server's RSS sampled every this many points" },
  { name: 'INGEST_EXPECT_FLAT', kind: 'off', fallback: true, shown: '1', smoke: '0', used: 'ingest-memory.js', meaning: '`0`: report RSS growth without failing on it' },
  { name: 'INGEST_ARGS', kind: 'words', fallback: [], shown: '', used: 'ingest-memory.js', meaning: 'extra `serve` flags (`--ingest-window 100000`)' },
  { name: 'INGEST_CLI', kind: 'text', used: 'ingest-memory.js', meaning: "another build's `bin/multi-area-mock.js` (a before figure)" },
  { name: 'SOAK_REQUESTS', kind: 'count', fallback: 1000000, smoke: '2000', used: 'soak.js', meaning: 'requests in all' },
  { name: 'SOAK_CONNECTIONS', kind: 'count', fallback: 32, used: 'soak.js', meaning: 'keep-alive connections' },
  { name: 'SOAK_SAMPLE_EVERY', kind: 'count', fallback: 100000, smoke: '1000', used: 'soak.js', meaning: "the server's RSS sampled every this many requests" },
  { name: 'SOAK_RESET_EVERY', kind: 'count', fallback: 50000, smoke: '1000', used: 'soak.js', meaning: 'a `POST /__mock/reset` every this many requests' },
  { name: 'MSW_PATH_REQUESTS', kind: 'count', fallback: 20000, smoke: '1000', used: 'msw-path.js', meaning: 'in-process requests per round and way' },
  { name: 'MSW_PATH_ROUNDS', kind: 'count', fallback: 5, smoke: '1', used: 'msw-path.js', meaning: 'rounds; figures are medians' },
  { name: 'MSW_PATH_DIST', kind: 'text', used: 'msw-path.js', meaning: "another build's `dist/src/` (an A/B against an older build)" },
  { name: '<users>', arg: 0, kind: 'count', fallback: 100000, used: 'heap-per-user.js', meaning: 'first argument: generated users per world' },
  { name: '<rounds>', arg: 1, kind: 'count', fallback: 3, used: 'heap-per-user.js', meaning: 'second argument: seedings; figures are medians' },
  { name: '--json', kind: 'flag', used: 'bundle-size.js', meaning: 'the bundle sizes as one JSON line' },
  { name: 'BENCH_BASELINE_FIXTURES', kind: 'text', used: 'baseline-server.js', meaning: 'set by run.js: the captured answers the bare baseline replays' },
  {
    name: 'BENCH_BASELINE_BATCH',
    kind: 'on',
    fallback: false,
    used: 'baseline-server.js',
    meaning: 'set by run.js: `1` makes the baseline end answers at the end of each event-loop turn',
  },
  {
    name: 'BENCH_BASELINE_PARSE',
    kind: 'on',
    fallback: false,
    used: 'baseline-server.js',
    meaning: 'set by command-input.js: `1` makes the baseline parse each request body as JSON (the floor of reading one)',
  },
]

/**
 * The value of one switch: the environment, else its flag, else its smoke value
 * under BENCH_SMOKE=1, else its default. Throws on a value of the wrong kind.
 *
 * @example
 * const seconds = setting('BENCH_DURATION') // 10, or BENCH_DURATION parsed
 * @param {string} name
 * @param {NodeJS.ProcessEnv} [env]
 * @param {string[]} [argv]
 * @returns {any}
 */
export function setting(name, env = process.env, argv = process.argv) {
  const entry = SWITCHES.find((candidate) => candidate.name === name)
  if (!entry) throw new Error(`bench: no switch ${name} in bench/switches.js`)
  if (entry.kind === 'flag') return argv.includes(entry.name)
  let raw = entry.arg === undefined ? env[entry.name] : argv[2 + entry.arg]
  if (empty(raw) && entry.flag) raw = entry.kind === 'on' ? (argv.includes(entry.flag) ? '1' : undefined) : argAfter(argv, entry.flag)
  if (empty(raw) && entry.smoke !== undefined && env.BENCH_SMOKE === '1') raw = entry.smoke
  if (empty(raw)) return typeof entry.fallback === 'function' ? entry.fallback((/** @type {string} */ other) => setting(other, env, argv)) : entry.fallback
  return parse(entry, /** @type {string} */ (raw))
}

/** @param {string | undefined} raw */
function empty(raw) {
  return raw === undefined || raw === ''
}

/**
 * The value after a flag (`--rounds 1`), if given.
 *
 * @param {string[]} argv
 * @param {string} flag
 */
function argAfter(argv, flag) {
  const index = argv.indexOf(flag)
  return index === -1 ? undefined : argv[index + 1]
}

/**
 * @param {Switch} entry
 * @param {string} raw
 * @returns {any}
 */
function parse({ name, kind }, raw) {
  const value = Number(raw)
  /** @type {(what: string) => never} */
  const fail = (what) => {
    throw new Error(`${name} must be ${what}, got "${raw}"`)
  }
  switch (kind) {
    case 'seconds':
      return Number.isFinite(value) && value > 0 ? value : fail('a positive number of seconds')
    case 'seconds0':
      return Number.isFinite(value) && value >= 0 ? value : fail('zero or more seconds')
    case 'count':
      return Number.isSafeInteger(value) && value > 0 ? value : fail('a positive integer')
    case 'count0':
      return Number.isSafeInteger(value) && value >= 0 ? value : fail('zero or a positive integer')
    case 'list':
      return raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    case 'sizes':
      return raw.split(',').map((item) => parse({ name, kind: 'count', used: '', meaning: '' }, item.trim()))
    case 'on':
      return raw === '1'
    case 'off':
      return raw !== '0'
    case 'words':
      return raw.split(/\s+/).filter(Boolean)
    default:
      return raw
  }
}
