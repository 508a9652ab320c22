import type { Api } from '../api.js'
import { AreaTabs } from '../tables/area-tabs.js'
import { instant } from '../format.js'
import { type Timeline, useTimeline } from './timeline-data.js'
import type { WorldData } from '../data/world-data.js'

/**
 * The World panel's tabs: the live world, or the world before the command
 * chosen on the time line (issue 35), read-only, with what says which and the
 * way back to the live world. Only this (and the time line panel) re-renders
 * at each step through the time line.
 *
 * @example
 * <TimelineWorld timeline={timeline} api={api} data={data} now={now} />
 */
export function TimelineWorld({ timeline, api, data, now }: { timeline: Timeline; api: Api; data: WorldData; now: number }) {
  const { chosen, point, commands } = useTimeline(timeline)
  const command = point?.command
  return (
    <>
      {chosen !== null && (
        <div class="rewind-banner">
          <p role="status" data-testid="rewind-shown" data-command={command?.number ?? ''}>
            {command === undefined ? (
              `Loading the world before command ${chosen}…`
            ) : (
              <>
                The world before command {command.number} of {commands?.length ?? point!.commands} (<span class="method">{command.method}</span> {command.path}), its clock at{' '}
                {instant(point!.clock)}. Read-only.
              </>
            )}
          </p>
          <button type="button" onClick={() => timeline.choose(null)}>
            Back to live
          </button>
        </div>
      )}
      <AreaTabs api={api} data={point ? { ...data, state: point.state } : data} now={point ? Date.parse(point.clock) : now} readOnly={point !== null} />
    </>
  )
}
