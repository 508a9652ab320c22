import { ConfigError } from '../../kernel/errors/config-error.js'

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
const USAGE = 'expected words like: POST /core/users 503 p=0.5 times=3 latency=100..300 drop area=core retry-after=5'

/**
 * A delay as `--latency` and `latency=` take it: `150` (fixed) or `50..200` (a range).
 *
 * @example
 * parseLatencyText('50..200') // [50, 200]
 */
export function parseLatencyText(text: string): number | [number, number] {
  const match = /^(\d+)(?:\.\.(\d+))?$/.exec(text.trim())
  if (!match) throw new ConfigError(`Invalid latency "${text}": expected milliseconds like 150, or a range like 50..200.`)
  if (match[2] === undefined) return Number(match[1])
  const range: [number, number] = [Number(match[1]), Number(match[2])]
  if (range[0] > range[1]) throw new ConfigError(`Invalid latency "${text}": the minimum comes first (e.g. 50..200).`)
  return range
}

/**
 * One rule's words as the JSON rule they stand for, not yet validated (the
 * control API and `validateFaultRules` do that): the syntax of `--fault`,
 * shared with the inspector page, which sends the result to `POST /__mock/faults`.
 *
 * @example
 * faultWordsToRule('POST /core/users 503 p=0.5') // { method: 'POST', route: '/core/users', status: 503, probability: 0.5 }
 */
export function faultWordsToRule(text: string): Record<string, unknown> {
  if (text === '') throw new ConfigError(`Empty fault rule: ${USAGE}.`)
  const rule: Record<string, unknown> = {}
  for (const word of text.split(/\s+/)) {
    const [key, value] = word.includes('=') ? [word.slice(0, word.indexOf('=')).toLowerCase(), word.slice(word.indexOf('=') + 1)] : [word, '']
    if (value === '' && METHODS.has(word.toUpperCase())) rule.method = word.toUpperCase()
    else if (value === '' && word.startsWith('/')) rule.route = word
    else if (value === '' && /^\d{3}$/.test(word)) rule.status = Number(word)
    else if (value === '' && word.toLowerCase() === 'drop') rule.drop = true
    else if (key === 'latency' || key === 'delay') rule.latency = parseLatencyText(value)
    else if (key === 'p' || key === 'probability') rule.probability = number(value, word)
    else if (key === 'times') rule.times = number(value, word)
    else if (key === 'area') rule.area = value
    else if (key === 'retry-after' || key === 'retryafter') rule.retryAfter = number(value, word)
    else throw new ConfigError(`Unknown part "${word}" in fault "${text}": ${USAGE}.`)
  }
  return rule
}

function number(value: string, word: string): number {
  const parsed = Number(value)
  if (value === '' || !Number.isFinite(parsed)) throw new ConfigError(`Invalid number in "${word}".`)
  return parsed
}
