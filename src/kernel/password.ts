/**
 * Salted password hashing with WebCrypto PBKDF2-SHA256, so it runs unchanged in
 * Node, a browser service worker and a test runner.
 *
 * The iteration count is deliberately low: this is a local simulator whose
 * seeded users share a documented password; the hash exists so that no password
 * is ever kept, returned, logged or exported, not to resist offline cracking.
 * Hashing was most of a user creation's cost at 4,096 rounds (bench/README.md);
 * 1,000 keep seeding and `POST /users` cheap.
 */
export const PASSWORD_ITERATIONS = 1000
const ALGORITHM = 'pbkdf2-sha256'
const encoder = new TextEncoder()

/**
 * Hashes `password` with `salt` into `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`.
 *
 * @example
 * const stored = await hashPassword('Passw0rd!', random.bytes(16))
 */
export async function hashPassword(password: string, salt: Uint8Array, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const hash = await derive(password, salt, iterations)
  return `${ALGORITHM}$${iterations}$${toBase64(salt)}$${toBase64(hash)}`
}

/** `true` when `password` matches a value produced by `hashPassword`. Constant-time compare. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algorithm, rounds, saltText, hashText] = stored.split('$')
  if (algorithm !== ALGORITHM || !rounds || !saltText || !hashText) return false
  const expected = fromBase64(hashText)
  const actual = await derive(password, fromBase64(saltText), Number(rounds))
  if (actual.length !== expected.length) return false
  let diff = 0
  for (let i = 0; i < actual.length; i++) diff |= actual[i]! ^ expected[i]!
  return diff === 0
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    256,
  )
  return new Uint8Array(bits)
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}
