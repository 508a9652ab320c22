// @ts-check
// The switches of the other benches, each a script of its own that a run.js flag (or npm script) starts: the rest of bench/switches.js's table, in the order `--help` prints it.

const RUN = 'run.js'
const PROXY = 'proxy.js, recording.js'

/**
 * Proxy, recording, bundles, worlds, per-test costs, import time, browser, ingestion, soak, msw path, heap, bundle size and the bare baseline.
 *
 * @example
 * const browser = SCRIPT_SWITCHES.filter((entry) => entry.used === 'browser-start.js')
 * @type {import('./switches.js').Switch[]}
 */
export const SCRIPT_SWITCHES = [
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
