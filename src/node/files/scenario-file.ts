import { basename, extname, resolve } from 'node:path'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { ScenarioError } from '../../kernel/errors/scenario-error.js'
import { type ScenarioInput, scenarioSchema } from '../../simulator/state/scenario-schema.js'
import { safeParse } from '../../kernel/http/validate.js'
import { openInputFile, readProblem } from './file-safety.js'

/**
 * Reads and validates a scenario file. Every failure names the file: unreadable,
 * not JSON, or the JSON path and problem of each schema issue (D25).
 *
 * @example
 * const { name, scenario } = await readScenarioFile('./scenarios/checkout.json')
 */
export async function readScenarioFile(path: string): Promise<{ name: string; scenario: ScenarioInput }> {
  const file = resolve(path)
  // A regular file only: a device (`/dev/zero`) or a named pipe is refused before anything is read.
  const handle = await openInputFile(path, 'scenario file')
  let text: string
  try {
    text = await handle.readFile('utf8')
  } catch (error) {
    throw new ConfigError(`Cannot read scenario file ${file}: ${readProblem(error)}.`)
  } finally {
    await handle.close()
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`Scenario file ${file} is not valid JSON: ${(error as Error).message}.`)
  }
  const result = safeParse(scenarioSchema, json)
  if (!result.success) throw new ScenarioError(`scenario file ${file}`, result.error.issues)
  return { name: basename(file, extname(file)), scenario: json as ScenarioInput }
}

/** `true` when a `--scenario` value names a file rather than a built-in scenario. */
export function looksLikePath(value: string): boolean {
  return value.includes('/') || value.includes('\\') || value.endsWith('.json')
}

/**
 * The name a scenario file keeps when it is copied elsewhere (a container's
 * scenario folder): its own, so the scenario it holds keeps its name.
 *
 * @example
 * scenarioFileName('./scenarios/checkout.json') // 'checkout.json'
 */
export function scenarioFileName(path: string): string {
  return basename(path)
}
