import { ConfigError } from '../../kernel/errors/config-error.js'
import type { FaultRule } from './fault-rule.js'
import { faultWordsToRule } from './fault-words.js'
import { validateFaultRules } from './faults.js'

export { parseLatencyText } from './fault-words.js'

/**
 * Reads fault rules written the way `--fault` takes them: words in any order,
 * `[METHOD] [/route] [status] [drop] [latency=MS|MIN..MAX] [p=0..1] [times=N]
 * [area=ID] [retry-after=S]`, or JSON (one rule, or a list) when the text starts
 * with `{` or `[`. Invalid text throws a `ConfigError` naming the problem.
 *
 * @example
 * parseFaultText('POST /core/users 503 p=0.5') // [{ method: 'POST', route: '/core/users', status: 503, probability: 0.5 }]
 */
export function parseFaultText(text: string): FaultRule[] {
  const trimmed = text.trim()
  let input: unknown
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      input = JSON.parse(trimmed)
    } catch (error) {
      throw new ConfigError(`Invalid fault ${trimmed}: not valid JSON (${(error as Error).message}).`)
    }
    if (!Array.isArray(input)) input = [input]
  } else {
    input = [faultWordsToRule(trimmed)]
  }
  return validateFaultRules(input, `fault "${trimmed}"`)
}
