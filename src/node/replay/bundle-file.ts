import { resolve } from 'node:path'
import { ConfigError } from '../../kernel/errors/config-error.js'
import { formatByteSize } from '../../kernel/http/byte-size.js'
import { issuesToDetails, safeParse } from '../../kernel/http/validate.js'
import { type WorldBundle, worldBundleSchema } from '../../simulator/history/world-bundle.js'
import { openInputFile, readProblem } from '../files/file-safety.js'

/**
 * The largest bundle file read: a world's kept history is folded past 20,000 commands or 16 MiB
 * (src/simulator/history/world-history.ts), so a real bundle stays far below it; and a
 * JavaScript string cannot hold much more anyway.
 */
export const BUNDLE_FILE_LIMIT = 512 * 1024 * 1024

/**
 * Reads and checks a world bundle file (`serve --replay`, `GET /__mock/bundle`
 * saved). Every failure is one line naming the file: unreadable, too large,
 * not JSON, or not a bundle (the JSON path and problem of its first issues).
 *
 * @example
 * const bundle = await readBundleFile('./mock-world.json')
 */
export async function readBundleFile(path: string, limit = BUNDLE_FILE_LIMIT): Promise<WorldBundle> {
  const file = resolve(path)
  const text = await readText(file, limit)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`Bundle file ${file} is not valid JSON: ${(error as Error).message}.`)
  }
  const kind = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {}
  // Something else entirely (a state document, a scenario) is said so, not listed field by field.
  if (kind.package !== 'multi-area-mock' || typeof kind.format !== 'number')
    throw new ConfigError(`Bundle file ${file} is not a multi-area-mock world bundle (take one with GET /__mock/bundle).`)
  if (kind.format !== 1) throw new ConfigError(`Bundle file ${file} has format ${kind.format}; this version reads format 1.`)
  const result = safeParse(worldBundleSchema, json)
  if (!result.success) {
    const details = issuesToDetails(result.error.issues)
    const listed = details.slice(0, 3).map((detail) => `${detail.path || '(root)'}: ${detail.message}`)
    const more = details.length > 3 ? `; and ${details.length - 3} more` : ''
    throw new ConfigError(`Invalid bundle file ${file}: ${listed.join('; ')}${more}.`)
  }
  return result.data
}

/** The file's text, refused past `limit` bytes before any of it is read; a regular file only (`/dev/zero` or a pipe would never end). */
async function readText(file: string, limit: number): Promise<string> {
  const handle = await openInputFile(file, 'bundle file')
  try {
    const { size } = await handle.stat()
    if (size > limit) throw tooLarge(file, size, limit)
    return await handle.readFile('utf8')
  } catch (error) {
    if (error instanceof ConfigError) throw error
    // A file grown past what a string holds since it was measured.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') throw tooLarge(file, undefined, limit)
    throw new ConfigError(`Cannot read bundle file ${file}: ${readProblem(error)}.`)
  } finally {
    await handle.close()
  }
}

function tooLarge(file: string, size: number | undefined, limit: number): ConfigError {
  return new ConfigError(`Bundle file ${file} is too large${size === undefined ? '' : ` (${size} bytes)`}: at most ${formatByteSize(limit)} is read.`)
}
