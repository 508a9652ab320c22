import { Buffer } from 'node:buffer'
import { resolve } from 'node:path'
import * as z from 'zod'
import { ALL_AREAS, type AreaId, areaFromText, areaIdSchema } from '../../areas/registry.js'
import { ConfigError } from '../../kernel/errors/config-error.js'
import type { TrafficAnswer } from '../../simulator/recording/recorder.js'
import { openInputFile, readProblem } from '../files/file-safety.js'

/**
 * Largest HAR file read (256 MiB): the whole file is parsed in memory, and an export this big is rarely one session.
 *
 * @example
 * if ((await stat(path)).size > MAX_HAR_BYTES) throw new ConfigError('too big')
 */
export const MAX_HAR_BYTES = 256 * 1024 * 1024

/**
 * The parts of a HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/)
 * that are read; everything else a tool writes is let through untouched.
 * Optional bodies are `nullish`: exporters differ in leaving a field out or writing `null`.
 */
const harEntrySchema = z.looseObject({
  request: z.looseObject({
    method: z.string(),
    url: z.string(),
    postData: z.looseObject({ text: z.string().nullish() }).nullish(),
  }),
  response: z.looseObject({
    // 0 (devtools) or -1 (Playwright) for a request that never got an answer.
    status: z.number(),
    content: z.looseObject({ text: z.string().nullish(), encoding: z.string().nullish() }).nullish(),
  }),
})

const harSchema = z.looseObject({
  log: z.looseObject({
    // 1.1 files differ from 1.2 in nothing read here.
    version: z.string().refine((version) => /^1\.[12]$/.test(version), 'expected "1.2"'),
    creator: z.looseObject({ name: z.string(), version: z.string().nullish() }).nullish(),
    entries: z.array(harEntrySchema),
  }),
})

/**
 * A HAR document, as far as it is read.
 *
 * @example
 * const har: HarDocument = parseHar(text, 'HAR file session.har')
 */
export type HarDocument = z.infer<typeof harSchema>
/**
 * One request of a HAR document and its answer.
 *
 * @example
 * const first: HarEntry = har.log.entries[0]
 */
export type HarEntry = z.infer<typeof harEntrySchema>

/**
 * A `--base` of `scenario from-har`: `{ url }` is a mount point whose path is
 * removed from the entries under it (what is left starts with an area's
 * prefix); `{ area, url }` is the area's real backend, whose entries are the
 * area's routes without its prefix.
 *
 * @example
 * const base: HarBase = { area: 'admin', url: new URL('https://users.example.com/api') }
 */
export interface HarBase {
  area?: AreaId
  /** Absolute http(s) URL without query or fragment, without a trailing slash. */
  url: URL
}

/**
 * A `--base` value: `<url>` or `<area>=<url>` (an area id or letter). A bad
 * one is a `ConfigError` saying what is expected.
 *
 * @example
 * parseHarBase('https://staging.example.com/backend') // { url: URL }
 * parseHarBase('A=https://users.example.com/api')     // { area: 'admin', url: URL }
 */
export function parseHarBase(text: string): HarBase {
  const at = text.indexOf('=')
  // `https://x/a=b` is a URL: an area form has neither ':' nor '/' before its '='.
  const named = at > 0 && !/[:/]/.test(text.slice(0, at))
  let area: AreaId | undefined
  if (named) {
    const checked = areaIdSchema.safeParse(areaFromText(text.slice(0, at)))
    if (!checked.success) throw new ConfigError(`unknown area "${text.slice(0, at)}" in --base: ${checked.error.issues[0]!.message}.`)
    area = checked.data
  }
  const urlText = named ? text.slice(at + 1) : text
  let url: URL
  try {
    url = new URL(urlText)
  } catch {
    throw new ConfigError(`--base "${text}" is not <url> or <area>=<url> with an absolute URL, such as https://staging.example.com/backend or admin=https://users.example.com/api.`)
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`--base "${text}": expected an http(s) URL without query, fragment or credentials, such as https://staging.example.com/backend.`)
  }
  url.pathname = url.pathname.replace(/\/+$/, '')
  return area === undefined ? { url } : { area, url }
}

/**
 * The `--base` values checked together: one URL given twice (for two areas, or
 * as a mount point and an area) is refused, since its entries could be either.
 *
 * @example
 * harBases(['https://staging.example.com/backend', 'ledger=https://chain.example.com'])
 */
export function harBases(texts: readonly string[]): HarBase[] {
  const bases = texts.map(parseHarBase)
  const seen = new Map<string, HarBase>()
  for (const base of bases) {
    const key = baseKey(base.url)
    const before = seen.get(key)
    if (before !== undefined) throw new ConfigError(`--base ${key} is given twice (${describeBase(before)} and ${describeBase(base)}): its entries would be either's.`)
    seen.set(key, base)
  }
  return bases
}

/**
 * The URL a HAR entry has at an in-process simulator with every area at its
 * usual prefix: under an area's `--base`, the area's prefix in place of the
 * base; under a mount point's, the mount point's path removed; otherwise the
 * URL as it is (areas are matched by path whatever the host). The longest
 * base that holds the URL wins. `undefined` for a URL that is not http(s)
 * (`data:`, `blob:`, an extension's).
 *
 * @example
 * simulatorUrl('https://users.example.com/api/api/v1.2/users?limit=5', [parseHarBase('admin=https://users.example.com/api')])
 * // 'https://users.example.com/admin/api/v1.2/users?limit=5'
 */
export function simulatorUrl(text: string, bases: readonly HarBase[]): string | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  if (!/^https?:$/.test(url.protocol)) return undefined
  let chosen: HarBase | undefined
  for (const base of bases) {
    if (base.url.origin !== url.origin) continue
    const path = base.url.pathname === '/' ? '' : base.url.pathname
    if (path !== '' && url.pathname !== path && !url.pathname.startsWith(`${path}/`)) continue
    if (chosen === undefined || path.length > chosenPath(chosen).length) chosen = base
  }
  if (chosen === undefined) return url.href
  const rest = url.pathname.slice(chosenPath(chosen).length)
  const prefix = chosen.area === undefined ? '' : ALL_AREAS.find((area) => area.id === chosen.area)!.prefix
  return `${url.origin}${prefix}${rest === '' && prefix === '' ? '/' : rest}${url.search}`
}

/**
 * A HAR entry as the recorder takes it, at `url` (from `simulatorUrl`): the
 * method, the request body's text, the status and the answer's text
 * (base64 content decoded). An entry without a body text (devtools leaves some
 * out) is an answer without a body.
 *
 * @example
 * recorder.record(harAnswer(entry, simulatorUrl(entry.request.url, bases)!))
 */
export function harAnswer(entry: HarEntry, url: string): TrafficAnswer {
  const content = entry.response.content
  const text = content?.text ?? undefined
  return {
    method: entry.request.method.toUpperCase(),
    url,
    status: entry.response.status,
    requestText: entry.request.postData?.text ?? undefined,
    responseText: text !== undefined && content?.encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text,
  }
}

/**
 * Reads a HAR file (`label` names it in errors, e.g. its path): at most
 * `MAX_HAR_BYTES`, JSON, and a HAR 1.1 or 1.2 document as far as it is read.
 * Every failure is a one-line `ConfigError` naming the file.
 *
 * @example
 * const har = await readHarFile('session.har')
 * har.log.entries.length // 42
 */
export async function readHarFile(path: string): Promise<HarDocument> {
  const file = resolve(path)
  // A regular file only: `/dev/zero` passes any size check and never ends, a pipe waits for a writer.
  const handle = await openInputFile(file, 'HAR file')
  let text: string
  try {
    const info = await handle.stat()
    if (info.size > MAX_HAR_BYTES)
      throw new ConfigError(
        `HAR file ${file} is ${mebibytes(info.size)} MiB, over the ${mebibytes(MAX_HAR_BYTES)} MiB limit: export fewer requests (a filter in the devtools' Network panel).`,
      )
    text = await handle.readFile('utf8')
  } catch (error) {
    if (error instanceof ConfigError) throw error
    throw new ConfigError(`Cannot read HAR file ${file}: ${readProblem(error)}.`)
  } finally {
    await handle.close()
  }
  return parseHar(text, `HAR file ${file}`)
}

/**
 * A HAR document from its text; `label` starts every error, which is one line.
 *
 * @example
 * parseHar('{"log":{"version":"1.2","entries":[]}}', 'HAR file x.har').log.entries // []
 */
export function parseHar(text: string, label: string): HarDocument {
  let json: unknown
  try {
    // A byte order mark, as some Windows tools write, is not JSON.
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (error) {
    throw new ConfigError(`${label} is not JSON (${oneLine((error as Error).message)}); expected a HAR 1.2 export.`)
  }
  const checked = harSchema.safeParse(json)
  if (!checked.success) {
    const issue = checked.error.issues[0]!
    const where =
      issue.path.length === 0
        ? ''
        : `${issue.path
            .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
            .join('')
            .replace(/^\./, '')}: `
    throw new ConfigError(`${label} is not a HAR 1.2 document (${where}${oneLine(issue.message)}).`)
  }
  return checked.data
}

function chosenPath(base: HarBase): string {
  return base.url.pathname === '/' ? '' : base.url.pathname
}

function baseKey(url: URL): string {
  return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`
}

function describeBase(base: HarBase): string {
  return base.area === undefined ? 'a mount point' : `area ${base.area}`
}

function mebibytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
