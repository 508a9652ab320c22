/**
 * A scenario file the server watches (`serve --watch`) changed: the world was
 * reloaded from it (`reloaded`, with the world's record counts), the new
 * content only replaced what its name loads because the world runs another
 * scenario (`registered`), or the file is broken and the world stays as it
 * was (`invalid`, with why). The `scenario-file` event of `/__mock/events`.
 *
 * @example
 * const event: ScenarioFileEvent = { file: '/work/mocks/team.json', scenario: 'team', status: 'reloaded', counts: { users: 3 } }
 */
export type ScenarioFileEvent =
  | { file: string; scenario: string; status: 'reloaded'; counts: Record<string, number> }
  | { file: string; scenario: string; status: 'registered' }
  | { file: string; scenario: string; status: 'invalid'; error: string }
