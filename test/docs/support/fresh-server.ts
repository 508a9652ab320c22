import { expectedStatuses, type ShellResult, statusMatches } from './shell.js'

/**
 * The line a shell block starts with when it assumes a server that nothing
 * else has changed: run twice against one server, it would not answer the
 * same. The reader sees it; `freshnessNeeded` finds the blocks that need it.
 */
export const FRESH_SERVER_NOTE = '# On a server just started (or reset: curl -X POST http://127.0.0.1:4000/__mock/reset)'

/** What changes between two runs without the world changing: ids drawn per request, instants, tokens. */
const VOLATILE = [
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
  /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g,
  /eyJ[\w-]+\.[\w-]+\.[\w-]+/g,
  /\b\d{13}-\d+\b/g,
]

const masked = (text: string) => VOLATILE.reduce((out, pattern) => out.replace(pattern, '…'), text)

/**
 * Why a block that ran as written on a fresh server (`first`) did not run the
 * same again on the same server (`second`): a status the docs promise, its
 * exit code, or the answers it printed (lines of JSON). Undefined when it did.
 *
 * @example
 * freshnessNeeded(first, second, block.code) // e.g. "curl call 2: 409, the docs promise 201"
 */
export function freshnessNeeded(first: ShellResult, second: ShellResult, code: string): string | undefined {
  if (second.code !== 0) return `exit ${second.code}: ${second.stderr.trim().split('\n').pop()}`
  const expected = expectedStatuses(code)
  const wrong = second.statuses.findIndex((status, index) => !statusMatches(status, expected[index] ?? '2xx'))
  if (wrong !== -1) return `curl call ${wrong + 1}: ${second.statuses[wrong]}, the docs promise ${expected[wrong]}`
  // The answers it printed; tools' own lines (progress, timings, random prefixes) are not the world.
  const answers = (stdout: string) =>
    masked(stdout)
      .split('\n')
      .filter((text) => /^[[{]/.test(text))
  const [before, after] = [answers(first.stdout), answers(second.stdout)]
  const line = before.findIndex((text, index) => text !== after[index])
  if (line !== -1 || before.length !== after.length) return `it printed "${after[line] ?? ''}" where it first printed "${before[line] ?? ''}"`
  return undefined
}
