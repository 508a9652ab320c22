/** Crockford's base32 in lower case: no i, l, o, u; ASCII order, so ids keep the order of their bytes. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

/** Prefix of generated particle ids ("quantum particle"). */
export const PARTICLE_ID_PREFIX = 'qp_'

/**
 * Ids a scenario or state document may fix: 1 to 128 URL-safe characters
 * (RFC 3986 unreserved: letters, digits, `.`, `_`, `~`, `-`), starting with a
 * letter or digit so `.` and `..` can never be ids.
 */
export const FIXED_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/

/**
 * A generated particle id (D24): `qp_` and the 16 bytes of a world id
 * (`world.nextId()`, seeded and creation-ordered) in 26 base32 digits, e.g.
 * `qp_02wd8b6k4hm0q3f5v9gk1rxz7c`. URL-safe, fixed length, and sorted in
 * creation order like the world's other ids.
 *
 * @example
 * particleIdFrom(world.nextId())
 */
export function particleIdFrom(uuid: string): string {
  let value = BigInt(`0x${uuid.replaceAll('-', '')}`)
  let digits = ''
  // 26 digits carry 130 bits; the top two are always zero.
  for (let i = 0; i < 26; i++) {
    digits = ALPHABET[Number(value & 31n)]! + digits
    value >>= 5n
  }
  return PARTICLE_ID_PREFIX + digits
}
