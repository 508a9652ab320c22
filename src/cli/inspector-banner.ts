import { CONTROL_PREFIX } from '../simulator/simulator.js'

/**
 * The banner's lines for the inspector page and, with `--state-file` or
 * `--store`, where the worlds are kept, aligned with the area lines above them.
 *
 * @example
 * lines.push(...inspectorBanner(running)) // ['     Inspector   http://127.0.0.1:4000/__mock/ui', ...]
 */
export function inspectorBanner(running: { url: string; stateFile: string | null; store?: string | null }): string[] {
  const lines = [`     ${'Inspector'.padEnd(40)} ${running.url}${CONTROL_PREFIX}/ui`]
  if (running.stateFile !== null) lines.push(`     ${'World kept in (each change before its answer)'.padEnd(40)} ${running.stateFile}`)
  if (running.store) lines.push(`     ${'Worlds shared with the replicas on'.padEnd(40)} ${running.store}`)
  return lines
}
