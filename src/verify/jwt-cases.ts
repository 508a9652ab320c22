import { base64url, CompactSign, decodeJwt, decodeProtectedHeader } from 'jose'

/** The claims and header of a token, or `undefined` when it is not a JWT. */
export function readJwt(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  try {
    return { header: decodeProtectedHeader(token) as Record<string, unknown>, claims: decodeJwt(token) as Record<string, unknown> }
  } catch {
    return undefined
  }
}

/** The same token with its signature changed (a character in the middle, so no padding bit hides the change). */
export function tamperedSignature(token: string): string {
  const dot = token.lastIndexOf('.')
  const signature = token.slice(dot + 1)
  const at = Math.floor(signature.length / 2)
  const swapped = signature[at] === 'A' ? 'B' : 'A'
  return `${token.slice(0, dot + 1)}${signature.slice(0, at)}${swapped}${signature.slice(at + 1)}`
}

/** The same claims with `alg: none` and no signature: must never be accepted (D7). */
export function unsignedCopy(token: string): string {
  const [, payload = ''] = token.split('.')
  const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))
  return `${header}.${payload}.`
}

/**
 * A token like `token` (same header and claims) that expired an hour before
 * `token` was issued, signed with the HS256 `secret`: the server's own clock
 * decides, whatever it is set to, since the times are relative to its `iat`.
 */
export async function expiredCopy(token: string, secret: string): Promise<string> {
  const read = readJwt(token)
  if (!read) throw new Error('the login answered a token that is not a JWT')
  const issued = typeof read.claims.iat === 'number' ? read.claims.iat : Math.floor(Date.now() / 1000)
  const claims: Record<string, unknown> = { ...read.claims, iat: issued - 7200, exp: issued - 3600 }
  if (typeof claims.nbf === 'number') claims.nbf = issued - 7200
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ ...read.header, alg: 'HS256' } as { alg: string })
    .sign(new TextEncoder().encode(secret))
}
