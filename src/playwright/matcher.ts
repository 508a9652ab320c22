import type { ExpectMatcherState, MatcherReturnType } from '@playwright/test'
import { MockWorld } from '../testing/mock-world.js'
import { checkMatch, judge, type MatchOptions, type RequestMatch, readJournalAsync, short } from '../testing/request-match.js'

/** Pause between two reads of the journal while the assertion waits. */
const POLL_MS = 100

/**
 * `expect(mock).toHaveReceivedRequest(match, { times?, timeout? })`: the world's
 * journal has a request matching `match` (exactly `times` of them when given).
 * Like Playwright's web-first assertions it keeps looking until it holds or the
 * timeout (default: the expect timeout) passes, since the page's requests may
 * still be on their way; more matches than `times` fail at once.
 *
 * @example
 * await expect(mock).toHaveReceivedRequest({ method: 'POST', path: '/admin/api/v1.2/users', body: { username: 'ada' } }, { times: 1 })
 */
export async function toHaveReceivedRequest(this: ExpectMatcherState, mock: MockWorld, match: RequestMatch, options: MatchOptions = {}): Promise<MatcherReturnType> {
  const name = 'toHaveReceivedRequest'
  const hint = this.utils.matcherHint(name, 'mock', 'match', { isNot: this.isNot })
  if (!(mock instanceof MockWorld)) throw new TypeError(`toHaveReceivedRequest: expected the \`mock\` fixture (a MockWorld), received ${short(mock)}.`)
  const checked = checkMatch(match, options)
  const timeout = checked.options.timeout ?? this.timeout
  const deadline = Date.now() + timeout
  for (;;) {
    const verdict = judge(checked.match, checked.options, await readJournalAsync(mock.journal, checked.match, mock.worldId), this.isNot)
    const settled = verdict.pass !== this.isNot
    // More matches than `times` do not become fewer while the test waits: no use waiting.
    const tooMany = checked.options.times !== undefined && verdict.matched.length > checked.options.times
    const final = tooMany && !this.isNot
    if (settled || final || Date.now() >= deadline) {
      const waited = settled || final || timeout === 0 ? '' : `\n\nTimeout: ${timeout} ms`
      return { name, pass: verdict.pass, expected: match, actual: verdict.matched.length, message: () => `${hint}\n\n${verdict.message()}${waited}` }
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))))
  }
}
