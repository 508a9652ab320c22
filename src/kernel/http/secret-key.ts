/**
 * The one redaction rule (issue 43): which names and which values are
 * secrets, for every place that writes what a request carried (the journal,
 * the events stream, bundles, the command log, recordings). Names are read as
 * words: `passwordConfirm`, `password_confirmation` and `PASSWORD-2` are the
 * words `password` + `confirm`, `password` + `confirmation`, `password`; so
 * `pin` is a secret and `spin`, `pinned` are not.
 */

/** Words that name a password wherever they stand in a word: `password_confirmation`, `oldpwd`. */
const PASSWORD_PARTS = ['password', 'passwd', 'passphrase', 'passcode', 'pwd']
/** Words that name a password when they are a whole word: `pass2`, `user_pass`, `pinCode`; never `passenger` or `spin`. */
const PASSWORD_WORDS = ['pass', 'pin', 'otp']
/** What a password-named key holds when it is not the password itself. */
const HASH_ENDINGS = ['hash', 'hashed', 'digest', 'salt']

/** Words that name a secret wherever they stand in a word: `client_secret`, `aws_credentials`. */
const SECRET_PARTS = ['secret', 'credential', 'mnemonic']
/** Words that contain a secret word and name none. */
const NOT_SECRET = ['secretar']
/** Names (words joined, without digits) that hold these anywhere: `awsAccessKeyId`, `private_key_pem`. */
const SECRET_JOINED = ['accesskey', 'privatekey', 'apikey']
/** Names (words joined) ending so: `access_token`, `x-csrf-token`, `PHPSESSID`; not `token_type`, `tokens`. */
const SECRET_ENDINGS = [
  'token',
  'signature',
  'authorization',
  'cookie',
  'sessionid',
  'sessid',
  'sessionkey',
  'authkey',
  'authcode',
  'authorizationcode',
  'signingkey',
  'encryptionkey',
  'masterkey',
  'hmackey',
  'licensekey',
  'subscriptionkey',
]
/** Secret names when they are the key's last word: `sid`, `x_auth`, `user_session`, `request_sig`; not `side`, `auth_type`, `signal`. */
const SECRET_LAST_WORDS = ['auth', 'session', 'sid', 'sig', 'jwt']
/** Of those, the ones that also name where secrets live: an object under them is searched key by key. */
const SCOPE_LAST_WORDS = ['auth', 'session']

/** Every key the rules above could call a secret holds one of these (a quick no for most keys: a journal reads thousands). */
const MAYBE_SECRET = /pass|pwd|pin|otp|secret|credential|mnemonic|key|token|signature|authorization|cookie|sess|sid|auth|sig|jwt/i

/** The lower-case words of a key, digits apart: `APIKey2` → `api`, `key`, `2`. */
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)|(\d)([A-Za-z])/g, '$1$3 $2$4')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter((word) => word !== '' && !/^\d+$/.test(word))
}

/**
 * `true` when a key names a password: the password itself or a repeat of it
 * (`password_confirmation`, `passwordConfirm`, `password2`, `old_passwd`,
 * `pwd`, `pass`, `passphrase`, `pin`, `otp`), never its hash (`password_hash`,
 * `passwordDigest`, `password_salt`). What the command log seals. A name with
 * a password word says what it holds is one (`password_changed_at` too).
 *
 * @example
 * isPasswordKey('password_confirmation') // true
 * isPasswordKey('password_hash')         // false (a secret still: isSecretKey)
 */
export function isPasswordKey(key: string): boolean {
  if (!MAYBE_SECRET.test(key)) return false
  const words = wordsOf(key)
  return isPasswordNamed(words) && !HASH_ENDINGS.some((ending) => words.join('').endsWith(ending))
}

function isPasswordNamed(words: readonly string[]): boolean {
  return words.some((word) => PASSWORD_WORDS.includes(word) || PASSWORD_PARTS.some((part) => word.includes(part)))
}

/**
 * `true` when a JSON key or form field names a secret: a password anywhere in
 * the key (its hash too), `*secret*`, `*credential*`, `*accesskey*`,
 * `*privatekey*`, `*apikey*`, and keys ending in `token`, `signature`,
 * `authorization`, `cookie`, `session`, `sid`, `auth`, `sig`, `sessionid`.
 * `token_id`, `token_type`, `side`, `author`, `spin`, `passenger`, `keyboard`
 * are not; nor is `key` alone (a name, in JSON: `isSecretQueryParam` takes it).
 *
 * @example
 * isSecretKey('passwordConfirm') // true
 * isSecretKey('api_key')         // true
 * isSecretKey('token_id')        // false
 */
export function isSecretKey(key: string): boolean {
  if (!MAYBE_SECRET.test(key)) return false
  const words = wordsOf(key)
  if (words.length === 0) return false
  if (isPasswordNamed(words)) return true
  if (words.some((word) => SECRET_PARTS.some((part) => word.includes(part)) && !NOT_SECRET.some((not) => word.startsWith(not)))) return true
  const joined = words.join('')
  if (SECRET_JOINED.some((part) => joined.includes(part))) return true
  if (SECRET_ENDINGS.some((ending) => joined.endsWith(ending))) return true
  return SECRET_LAST_WORDS.includes(words.at(-1)!)
}

/**
 * `true` for the secret names that also name where secrets live (`auth`,
 * `session`, `basic_auth`): a string under them is a secret, an object under
 * them (`"auth": {"expires_in": 900}`) is searched key by key instead.
 *
 * @example
 * isSecretScopeKey('auth') // true
 */
export function isSecretScopeKey(key: string): boolean {
  const words = wordsOf(key)
  return words.length > 0 && SCOPE_LAST_WORDS.includes(words.at(-1)!) && isSecretKey(key)
}

/**
 * `true` when the value under `key` in a JSON document is hidden whole: a
 * secret name's value (but an object under a scope name, searched instead),
 * or a string that looks like a credential whatever its key. The one rule of
 * JSON bodies, JSON documents and what recording keeps.
 *
 * @example
 * isSecretEntry('debug', 'Bearer eyJ…') // true
 * isSecretEntry('auth', { expires_in: 900 }) // false: searched
 */
export function isSecretEntry(key: string, value: unknown): boolean {
  if (typeof value === 'string' && looksLikeSecretValue(value)) return true
  if (!isSecretKey(key)) return false
  return !(value !== null && typeof value === 'object' && !Array.isArray(value) && isSecretScopeKey(key))
}

/**
 * `true` when a query parameter (or a form field) names a secret: a secret
 * key, `key` itself (`?key=AIza…`), or any `X-Amz-*` (a presigned URL's).
 *
 * @example
 * isSecretQueryParam('key')              // true
 * isSecretQueryParam('X-Amz-Credential') // true
 */
export function isSecretQueryParam(name: string): boolean {
  const lower = name.toLowerCase()
  return lower === 'key' || lower.startsWith('x-amz-') || isSecretKey(name)
}

/**
 * `true` when a header carries a secret: `Authorization`,
 * `Proxy-Authorization`, `Cookie`, any `x-amz-*`, `x-auth*` or `x-session*`
 * header, and any header with a secret name (`x-api-key`, `x-csrf-token`).
 *
 * @example
 * isSecretHeader('x-auth-user') // true
 * isSecretHeader('x-author')    // false
 */
export function isSecretHeader(name: string): boolean {
  const words = name.toLowerCase().split(/[^a-z\d]+/)
  if (words[0] === 'x' && (words[1] === 'amz' || words[1] === 'auth' || words[1] === 'session')) return true
  return isSecretKey(name)
}

/** Every credential value holds one of these (a quick no for most strings). */
const MAYBE_CREDENTIAL = /eyJ|bearer|basic/i
/** A compact JWT (or JWE): base64url parts, the first a JSON object (`eyJ`). */
const JWT = /eyJ[\w-]{2,}\.[\w-]*\.[\w-]*(?:\.[\w-]*\.[\w-]*)?/
/** A credential that is the whole value: `Bearer <token>`, `Basic <base64>`. */
const WHOLE_CREDENTIAL = /^\s*(bearer|basic)\s+([\w\-.~+/]+=*)\s*$/i
/** A credential inside a text (`isCredential` tells prose such as `the bearer of` apart). */
const INNER_CREDENTIAL = /\b(bearer|basic)(\s+)([\w\-.~+/]{4,}=*)/gi

/**
 * `true` when a string is, or holds, a credential whatever its key: a
 * `Bearer …` or `Basic …` credential (alone, or inside a text such as an
 * echoed `Authorization: Bearer …`) or a compact JWT (`eyJ….….…`).
 *
 * @example
 * looksLikeSecretValue('Bearer abc')              // true
 * looksLikeSecretValue('the bearer of this card') // false
 */
export function looksLikeSecretValue(value: string): boolean {
  if (value.length < 8 || !MAYBE_CREDENTIAL.test(value)) return false
  const whole = WHOLE_CREDENTIAL.exec(value)
  if (whole !== null && isCredential(whole[1]!, whole[2]!, true)) return true
  if (JWT.test(value)) return true
  for (const match of value.matchAll(INNER_CREDENTIAL)) if (isCredential(match[1]!, match[3]!, false)) return true
  return false
}

/**
 * `text` with each credential in it replaced by `hidden` (a Bearer or Basic
 * credential keeps its scheme): for texts whose values cannot be told apart.
 *
 * @example
 * redactSecretValues('sent Bearer eyJ….….… twice', '[redacted]') // 'sent Bearer [redacted] twice'
 */
export function redactSecretValues(text: string, hidden: string): string {
  if (text.length < 8 || !MAYBE_CREDENTIAL.test(text)) return text
  return text
    .replace(new RegExp(JWT.source, 'g'), hidden)
    .replace(INNER_CREDENTIAL, (found, scheme: string, space: string, token: string) =>
      token !== hidden && isCredential(scheme, token, false) ? `${scheme}${space}${hidden}` : found,
    )
}

/** A Bearer token (inside a text: 16 characters or more, with a digit or a sign, as tokens have), or Basic's base64 of `user:password`. */
function isCredential(scheme: string, token: string, whole: boolean): boolean {
  if (scheme.toLowerCase() === 'bearer') return whole || (token.length >= 16 && /[\d\-.~+/=]/.test(token))
  try {
    return atob(token).includes(':')
  } catch {
    return false
  }
}
