import { ConfigError } from '../../kernel/errors/config-error.js'

/** A base URL split into the parts the dispatcher matches on (D3). */
export interface ParsedBaseUrl {
  origin: string | null
  prefix: string
}

/**
 * Accepts an absolute URL (`https://ledger.example.com/v0`) or a path prefix
 * (`/ledger`, `''` or `/` for the root) and normalises it.
 *
 * @example
 * parseBaseUrl('/admin/') // { origin: null, prefix: '/admin' }
 */
export function parseBaseUrl(value: string): ParsedBaseUrl {
  if (value === '' || value.startsWith('/')) {
    if (/[?#]/.test(value)) throw new ConfigError(`Invalid base URL "${value}": a base URL has no query or fragment.`)
    return { origin: null, prefix: trimSlashes(value) }
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`Invalid base URL "${value}": expected an absolute URL or a path starting with "/".`)
  }
  if (url.search || url.hash) throw new ConfigError(`Invalid base URL "${value}": a base URL has no query or fragment.`)
  return { origin: url.origin, prefix: trimSlashes(url.pathname) }
}

/** Renders a parsed base URL back into text, for banners and error messages. */
export function formatBaseUrl(base: ParsedBaseUrl): string {
  return `${base.origin ?? ''}${base.prefix || (base.origin ? '' : '/')}`
}

function trimSlashes(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}
