/**
 * A password as a kept command carries it (issue 33: a world's log never holds
 * a password in clear): its PBKDF2-SHA256 key under each world salt it may be
 * hashed or checked with, the salted hash every stored hash of such a world is
 * an HMAC of. Hashing or checking it gives what the clear password gives, on
 * every replica and in every replay.
 *
 * `text` is `<iterations>$<world salt, base64>$<key, base64>`, `;`-separated.
 *
 * @example
 * const sealed = new SealedPassword(await passwords.seal('Passw0rd!', ['multi-area-mock/1']))
 * sealed.keyFor(1000, saltBase64) // the key's base64, or undefined
 */
export class SealedPassword {
  readonly #keys = new Map<string, string>()

  constructor(readonly text: string) {
    for (const part of text.split(';')) {
      const [rounds, salt, key] = part.split('$')
      if (rounds && salt && key) this.#keys.set(`${rounds}$${salt}`, key)
    }
  }

  /** The key (base64) under `iterations` and a world salt (base64), if the password was sealed for it. */
  keyFor(iterations: number | string, worldSalt: string): string | undefined {
    return this.#keys.get(`${iterations}$${worldSalt}`)
  }

  /** Never the keys in a log line or an error by accident. */
  toString(): string {
    return '[sealed]'
  }
}
