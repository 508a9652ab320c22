/** A stream id in its full form, `<ms>-<seq>` (a bare `<ms>` is `<ms>-0`); anything else is a `TypeError`. */
export function normalizeStreamId(id: string): string {
  const match = /^(\d{1,20})(?:-(\d{1,20}))?$/.exec(id)
  if (!match) throw new TypeError(`"${id}" is not a stream id (<ms>-<seq>).`)
  return `${BigInt(match[1]!)}-${BigInt(match[2] ?? 0)}`
}

/** The id with both parts zero-padded to 20 digits: ordered as text as the ids are. */
export function orderOf(id: string): string {
  const [ms, seq] = normalizeStreamId(id).split('-') as [string, string]
  return `${ms.padStart(20, '0')}-${seq.padStart(20, '0')}`
}
