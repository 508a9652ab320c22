import { CONTROL_PREFIX } from '../simulator/simulator.js'

/**
 * The banner's lines for the inspector page and, with `--state-file`, where
 * the world is kept, aligned with the area lines above them.
 *
 * @example
 * lines.push(...inspectorBanner(running)) // ['     Inspector   http://127.0.0.1:4000/__mock/ui', ...]
 */
export function inspectorBanner(running: { url: string; stateFile: string | null }): string[] {
  const lines = [`     ${'Inspector'.padEnd(40)} ${running.url}${CONTROL_PREFIX}/ui`]
  if (running.stateFile !== null) lines.push(`     ${'World kept in (saved after each change)'.padEnd(40)} ${running.stateFile}`)
  return lines
}
