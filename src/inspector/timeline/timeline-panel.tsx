import { counted, instant, short } from '../format.js'
import { type CollectionDiff, type HistoryCommand, type HistoryPoint, type Timeline, useTimeline } from './timeline-data.js'
import './timeline-panel.css'

/** Commands listed on each side of the one chosen. */
const AROUND = 4

/** Entries of each kind shown per collection; the rest are counted. */
const SHOWN = 20

/**
 * The world's time line (issue 35): a slider over its kept commands, whose
 * right end is the live world; Previous and Next step one command (so do the
 * arrow keys on the slider); the commands around the one chosen; and what
 * that command changed. Choosing a command shows the world as it stood
 * before it in the World panel, read-only; nothing here writes the world.
 *
 * @example
 * <TimelinePanel timeline={new Timeline(api)} />
 */
export function TimelinePanel({ timeline }: { timeline: Timeline }) {
  const { commands, chosen, point, problem } = useTimeline(timeline)
  const choose = (number: number | null) => timeline.choose(number)
  const count = commands?.length ?? 0
  const at = chosen ?? count + 1
  const go = (number: number) => choose(number > count ? null : Math.max(1, number))
  return (
    <section aria-labelledby="timeline-heading" class="panel timeline">
      <header class="panel-head">
        <h2 id="timeline-heading">Time line</h2>
        <span class="note">{commands === null ? 'loading…' : `${counted(count, 'command')} kept`}</span>
      </header>
      {problem && (
        <p class="outcome error" role="alert">
          {problem}
        </p>
      )}
      {commands !== null && count === 0 && <p class="note">No command yet: every write to this world is kept here, to look at the world as it stood before it.</p>}
      {commands !== null && count > 0 && (
        <>
          <div class="timeline-steps">
            <button type="button" onClick={() => go(at - 1)} disabled={at <= 1} aria-label="Previous command">
              ◀
            </button>
            <input
              type="range"
              min={1}
              max={count + 1}
              step={1}
              value={at}
              aria-label="Time line"
              aria-valuetext={chosen === null ? 'Live' : `Before command ${chosen} of ${count}`}
              onInput={(event) => go(Number(event.currentTarget.value))}
            />
            <button type="button" onClick={() => go(at + 1)} disabled={chosen === null} aria-label="Next command">
              ▶
            </button>
          </div>
          <p class="timeline-where">
            {chosen === null ? (
              `Live: the world after ${count === 1 ? 'the' : 'all'} ${counted(count, 'command')}.`
            ) : (
              <>
                Before command {chosen} of {count}.{' '}
                <button type="button" onClick={() => choose(null)}>
                  Back to live
                </button>
              </>
            )}
          </p>
          <CommandList commands={commands} at={at} choose={choose} />
          {point && chosen !== null && <Changes point={point} />}
        </>
      )}
    </section>
  )
}

function CommandList({ commands, at, choose }: { commands: HistoryCommand[]; at: number; choose: (number: number) => void }) {
  const from = Math.max(0, Math.min(at - 1 - AROUND, commands.length - 2 * AROUND - 1))
  const near = commands.slice(from, from + 2 * AROUND + 1)
  return (
    <ol class="timeline-commands" aria-label="Commands" start={from + 1}>
      {near.map((command) => (
        <li key={command.number}>
          <button type="button" class="link" aria-current={command.number === at ? 'step' : undefined} onClick={() => choose(command.number)}>
            <span class="number">#{command.number}</span> <span class="method">{command.method}</span> {command.path}
          </button>
          <span class="note"> {instant(command.at).slice(11)}</span>
        </li>
      ))}
    </ol>
  )
}

function Changes({ point }: { point: HistoryPoint }) {
  const { command, diff } = point
  return (
    <section aria-label={`What command ${command.number} changed`} class="timeline-changes">
      <h3>
        What #{command.number} changed: {counted(diff.records, 'record')}
      </h3>
      {diff.collections.map((collection) => (
        <CollectionChanges key={`${collection.section}.${collection.collection}`} diff={collection} />
      ))}
      {diff.records === 0 && <p class="note">No record changed.</p>}
      {diff.values.length > 0 && <p class="note">Also changed: {diff.values.map((value) => value.path).join(', ')}.</p>}
    </section>
  )
}

function CollectionChanges({ diff }: { diff: CollectionDiff }) {
  const title = `${diff.section} · ${diff.collection}`
  return (
    <>
      <h4>{title}</h4>
      <ul class="diff" aria-label={title}>
        {diff.added.slice(0, SHOWN).map((entry) => (
          <li key={`+${entry.key}`} class="added">
            <span class="visually-hidden">Added </span>
            {named(entry.record, entry.key)}
          </li>
        ))}
        {diff.changed.slice(0, SHOWN).map((entry) => (
          <li key={`~${entry.key}`} class="changed">
            <span class="visually-hidden">Changed </span>
            {short(entry.key, 12)}: {entry.fields.map(fieldChange).join('; ')}
          </li>
        ))}
        {diff.removed.slice(0, SHOWN).map((entry) => (
          <li key={`-${entry.key}`} class="removed">
            <span class="visually-hidden">Removed </span>
            {named(entry.record, entry.key)}
          </li>
        ))}
      </ul>
      {[diff.added, diff.changed, diff.removed].some((list) => list.length > SHOWN) && <p class="note">Only the first {SHOWN} of each kind are listed.</p>}
    </>
  )
}

/** A record by a name a person knows it by, with its key. */
function named(record: unknown, key: string): string {
  const fields = (record ?? {}) as Record<string, unknown>
  const name = [fields.username, fields.name, fields.symbol, fields.message].find((value) => typeof value === 'string')
  return name === undefined ? short(key, 12) : `${name} (${short(key, 8)})`
}

/** One changed field as `name before → after`; a side where the field was not there reads `—`. */
function fieldChange(field: CollectionDiff['changed'][number]['fields'][number]): string {
  return `${field.name} ${brief(field.absent === 'before' ? undefined : field.before)} → ${brief(field.absent === 'after' ? undefined : field.after)}`
}

/** A value in a few characters. */
function brief(value: unknown): string {
  const text = value === undefined ? '—' : JSON.stringify(value)
  return text.length > 40 ? `${text.slice(0, 39)}…` : text
}
