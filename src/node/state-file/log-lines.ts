import { crc32 } from 'node:zlib'

// The log's lines, each `<CRC-32 of the text, 8 hex digits> <text>`: a header, entries, compaction marks.
const HEADER = /^log 1 follows (\S+)$/
const MARK = /^compacted (\S+) (\d+)$/

/** The log's first line: which snapshot (SHA-256 of its bytes, or `none`) its entries follow. */
export const headerLine = (snapshotId: string): string => line(`log 1 follows ${snapshotId}`)
/** One entry (a single line of text). */
export const entryLine = (entry: string): string => line(`+ ${entry}`)
/** Written by a compaction before its snapshot is renamed in: that snapshot holds the first `covered` entries of this log. */
export const markLine = (snapshotId: string, covered: number): string => line(`compacted ${snapshotId} ${covered}`)

/** What a log holds, up to its first bad line, and what was after it. */
export interface ParsedLog {
  follows: string | undefined
  entries: string[]
  marks: Array<{ id: string; at: number }>
  /** Bytes of good lines from the start. */
  good: number
  /** Bytes and lines after them, the first bad line and intact-looking lines after it. */
  cut: number
  cutLines: number
  firstBad: number
  intactAfter: number
  torn: boolean
}

/** Reads the log's lines up to the first that is torn, fails its checksum or is out of place. */
export function parseLog(bytes: Buffer): ParsedLog {
  const parsed: ParsedLog = { follows: undefined, entries: [], marks: [], good: 0, cut: 0, cutLines: 0, firstBad: 0, intactAfter: 0, torn: false }
  let start = 0
  for (let index = 0; start < bytes.length; index++) {
    const end = bytes.indexOf(0x0a, start)
    const body = end === -1 ? undefined : checked(bytes.subarray(start, end))
    const header = body === undefined ? undefined : HEADER.exec(body)
    const mark = body === undefined || index === 0 ? undefined : MARK.exec(body)
    if (index === 0 && header) parsed.follows = header[1]!
    else if (index > 0 && body?.startsWith('+ ')) parsed.entries.push(body.slice(2))
    else if (mark && Number(mark[2]) <= parsed.entries.length) parsed.marks.push({ id: mark[1]!, at: Number(mark[2]) })
    else {
      parsed.firstBad = index + 1
      break
    }
    start = parsed.good = end + 1
  }
  const rest = bytes.subarray(parsed.good)
  parsed.cut = rest.length
  if (rest.length === 0) return parsed
  const lines = rest.toString('latin1').split('\n')
  if (lines.at(-1) === '') lines.pop()
  parsed.cutLines = lines.length
  parsed.torn = lines.length === 1 && rest.at(-1) !== 0x0a
  parsed.intactAfter = lines.slice(1).filter((text) => checked(Buffer.from(text, 'latin1')) !== undefined).length
  return parsed
}

/** One line telling what was cut from the log at `path`. */
export function cutWarning(path: string, parsed: ParsedLog): string {
  const kept = `the ${parsed.entries.length} entries before it are kept`
  if (parsed.torn) return `Cut a torn last line (${parsed.cut} bytes) from the log ${path}, left by a stop in the middle of a write; ${kept}.`
  const after = parsed.intactAfter > 0 ? `, with ${parsed.intactAfter} intact-looking lines after it (entries must stay in order)` : ''
  return `Cut ${parsed.cut} bytes (${parsed.cutLines} lines) from the log ${path} from line ${parsed.firstBad} on, which is torn or corrupt${after}; ${kept}.`
}

/**
 * The refusal of a file at the log's `path` whose first line is no header:
 * the header is written whole (renamed in), so it is not a log this server
 * wrote, and it is never cut or rewritten ("repaired").
 */
export function notALog(path: string): string {
  return `The log ${path} does not start with the line multi-area-mock writes first, so it is not a log this server wrote; move it away or delete it; it was left as it is.`
}

/** A line as stored: the CRC-32 of its text, a space, the text. */
function line(text: string): string {
  return `${crc32(text).toString(16).padStart(8, '0')} ${text}\n`
}

/** The text of a stored line (without its newline), or undefined when its checksum does not match. */
function checked(stored: Buffer): string | undefined {
  if (stored.length < 9 || stored[8] !== 0x20 || !/^[0-9a-f]{8}$/.test(stored.toString('latin1', 0, 8))) return undefined
  const body = stored.subarray(9)
  return Number.parseInt(stored.toString('latin1', 0, 8), 16) === crc32(body) ? body.toString('utf8') : undefined
}
