/** Key endings (lower case, without `-` and `_`) that name a secret: `password`, `access_token`, `clientSecret`… */
const SECRET_ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'passwordhash',
  'secret',
  'token',
  'signature',
  'apikey',
  'privatekey',
  'authorization',
  'cookie',
  'credentials',
  'mnemonic',
]

/**
 * `true` when a JSON key names a secret: passwords, tokens, signatures,
 * secrets, keys. `token_id` or `token_type` are not secrets (only names that
 * *end* with a secret word are). The one rule of the journal's redaction
 * and of what recording keeps.
 *
 * @example
 * isSecretKey('api_key')  // true
 * isSecretKey('token_id') // false
 */
export function isSecretKey(key: string): boolean {
  const normalised = key.toLowerCase().replace(/[-_\s]/g, '')
  return SECRET_ENDINGS.some((ending) => normalised.endsWith(ending))
}
