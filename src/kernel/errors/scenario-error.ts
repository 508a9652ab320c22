import type { z } from 'zod'
import type { ErrorDetail } from './api-error.js'
import { ConfigError } from './config-error.js'
import { issuesToDetails } from '../http/validate.js'

/**
 * A scenario or state document that fails validation. The message names the
 * document (`scenario "x"`, `scenario file /a.json`, `state document`), the
 * JSON path and the problem of each issue.
 *
 * @example
 * try { createSimulator({ scenario }) } catch (error) {
 *   if (error instanceof ScenarioError) console.log(error.details) // [{ path: 'accounts.users.0.email', message: '…' }]
 * }
 */
export class ScenarioError extends ConfigError {
  readonly details: ErrorDetail[]

  constructor(subject: string, issues: readonly z.core.$ZodIssue[]) {
    const details = issuesToDetails(issues)
    const listed = details.slice(0, 5).map((detail) => `${detail.path || '(root)'}: ${detail.message}`)
    const more = details.length > 5 ? `; and ${details.length - 5} more` : ''
    super(`Invalid ${subject}: ${listed.join('; ')}${more}`)
    this.name = 'ScenarioError'
    this.details = details
  }
}
