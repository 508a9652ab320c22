import { useState } from 'preact/hooks'
import { faultWordsToRule } from '../../simulator/faults/fault-words.js'
import { useAction } from '../action.js'
import type { Api } from '../api.js'
import { Outcome } from '../outcome.js'
import type { FaultRuleView } from '../data/world-data.js'

/** A rule in the words `--fault` takes, e.g. `POST /core/users 503 p=0.5 times=3`. */
export function ruleWords(rule: FaultRuleView): string {
  const words: string[] = []
  if (rule.method) words.push(String(rule.method))
  if (rule.route) words.push(String(rule.route))
  if (rule.area) words.push(`area=${rule.area}`)
  if (rule.status !== undefined) words.push(String(rule.status))
  if (rule.drop) words.push('drop')
  if (rule.latency !== undefined) words.push(`latency=${Array.isArray(rule.latency) ? rule.latency.join('..') : rule.latency}`)
  if (rule.probability !== undefined) words.push(`p=${rule.probability}`)
  if (rule.times !== undefined) words.push(`times=${rule.times}`)
  if (rule.retryAfter !== undefined) words.push(`retry-after=${rule.retryAfter}`)
  return words.join(' ') || '(every area request)'
}

/** The rules as `PUT /__mock/faults` takes them back: without the `fired` counts. */
function bare(rules: FaultRuleView[]): Array<Record<string, unknown>> {
  return rules.map(({ fired: _fired, ...rule }) => rule)
}

/**
 * The fault rules of the world: listed in the words of `--fault`, added in
 * those words (or JSON) with `POST /__mock/faults`, removed with
 * `PUT /__mock/faults` of the others (their counts start again).
 */
export function FaultsPanel({ api, rules }: { api: Api; rules: FaultRuleView[] }) {
  const [text, setText] = useState('')
  const [act, outcome] = useAction()
  const add = (event: Event) => {
    event.preventDefault()
    void act(async () => {
      const trimmed = text.trim()
      const parsed: unknown = trimmed.startsWith('{') || trimmed.startsWith('[') ? JSON.parse(trimmed) : faultWordsToRule(trimmed)
      for (const rule of Array.isArray(parsed) ? parsed : [parsed]) await api.send('POST', `${api.control}/faults`, rule)
      setText('')
    }, `Added: ${text.trim()}`)
  }
  const remove = (index: number) => {
    const rest = bare(rules).filter((_, at) => at !== index)
    void act(() => api.send('PUT', `${api.control}/faults`, { rules: rest }), `Removed rule ${index + 1}.`)
  }
  return (
    <section aria-labelledby="faults-heading" class="panel">
      <h2 id="faults-heading">Fault rules</h2>
      {rules.length === 0 ? (
        <p class="empty">No rules: every request is answered normally.</p>
      ) : (
        <ol class="rules">
          {rules.map((rule, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a rule is its place in the list (the API removes rule N), and two rules may read the same
            <li key={`${index}:${ruleWords(rule)}`}>
              <code>{ruleWords(rule)}</code> <span class="note">fired {rule.fired ?? 0}×</span>
              <button type="button" aria-label={`Remove rule ${index + 1}: ${ruleWords(rule)}`} disabled={outcome.busy} onClick={() => remove(index)}>
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      <form class="row" onSubmit={add}>
        <label>
          Fault rule
          <input type="text" value={text} placeholder="POST /core/users 503 times=1" onInput={(event) => setText(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={outcome.busy || text.trim() === ''}>
          Add rule
        </button>
      </form>
      <p class="note">
        Words as <code>--fault</code> takes them: <code>[METHOD] [/route] [status] [drop] [latency=MS|MIN..MAX] [p=0..1] [times=N] [area=ID]</code>, or JSON.
      </p>
      <Outcome state={outcome} />
    </section>
  )
}
