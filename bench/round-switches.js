// @ts-check
// The switches of run.js itself, its throughput rounds and the scale figures: the first part of bench/switches.js's table, in the order `--help` prints it.

const RUN = 'run.js'
const SCALE = 'scale.js'
const PROXY = 'proxy.js, recording.js'

/**
 * run.js's own flags, then the switches of a throughput run (its rounds, rows, variants, pairs, targets) and of `--scale`.
 *
 * @example
 * const names = ROUND_SWITCHES.map((entry) => entry.name) // ['--help', '--markdown', 'BENCH_SMOKE', ...]
 * @type {import('./switches.js').Switch[]}
 */
export const ROUND_SWITCHES = [
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
    fallback: (/** @type {import('./switches.js').Get} */ get) => Math.ceil((get('BENCH_WARMUP') + get('BENCH_DURATION')) * 1500),
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
    fallback: (/** @type {import('./switches.js').Get} */ get) => get('BENCH_ROUNDS'),
    shown: 'BENCH_ROUNDS, else 3',
    smoke: '1',
    used: SCALE,
    meaning: 'rounds for `--scale`, a fresh server per size and round',
  },
  { name: 'BENCH_SCALE_TARGET_ROUNDS', kind: 'count', fallback: 3, smoke: '1', used: 'scale-targets.js', meaning: 'fresh 100,000-user servers the scale targets are medians of' },
]
