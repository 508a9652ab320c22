/**
 * A scenario file as fetched, not yet validated: its URL, the name it gets and
 * its JSON; or, when it could not be had, the one-line problem to report.
 */
export type FetchedScenario = { url: string; name: string; json: unknown } | { url: string; problem: string }

/** `true` when a `scenario` string is a URL to fetch rather than a scenario name. */
export function looksLikeUrl(value: string): boolean {
  return value.includes('/') || value.endsWith('.json')
}

/** `true` when the `scenario` option is a URL to fetch (a `URL`, or a string with a `/` or ending in `.json`). */
export function isScenarioUrl(option: unknown): option is string | URL {
  return option instanceof URL || (typeof option === 'string' && looksLikeUrl(option))
}

/**
 * Fetches a scenario file relative to `base` (the page) and names it after its
 * file (`/mocks/team.json` is `team`), like the CLI names scenario files. A
 * failed fetch or a body that is not JSON gives the problem, naming the URL,
 * for `checkFetchedScenario` to throw as a `ConfigError`; what the file holds
 * is checked there too, with the scenario schema. Kept apart from both so the
 * browser entry can fetch it before msw's worker starts (which might otherwise
 * answer it) without loading the simulator or sharing a chunk with it.
 *
 * @example
 * await fetchScenario('/mocks/team.json', fetch, location.href) // { url: 'http://…/mocks/team.json', name: 'team', json: {...} }
 */
export async function fetchScenario(option: string | URL, fetchJson: typeof fetch, base?: string): Promise<FetchedScenario> {
  const url = new URL(option, base)
  let response: Response
  try {
    response = await fetchJson(url, { headers: { accept: 'application/json' } })
  } catch (error) {
    return { url: url.href, problem: `Cannot load scenario ${url.href}: ${error instanceof Error ? error.message : String(error)}.` }
  }
  if (!response.ok) return { url: url.href, problem: `Cannot load scenario ${url.href}: HTTP ${response.status}.` }
  let json: unknown
  try {
    json = await response.json()
  } catch (error) {
    return { url: url.href, problem: `Scenario ${url.href} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.` }
  }
  const file = url.pathname.split('/').pop() ?? ''
  return { url: url.href, name: decodeURIComponent(file.replace(/\.json$/i, '')) || 'custom', json }
}
