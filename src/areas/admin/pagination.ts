/**
 * An RFC 8288 `Link` header with first/prev/next/last for page-numbered lists
 * (D12). Other query parameters of `url` are kept, so filters survive paging.
 *
 * @example
 * linkHeader(url, { page: 2, limit: 20, total: 57 })
 * // <…?page=1&limit=20>; rel="first", <…?page=1&limit=20>; rel="prev", …
 */
export function linkHeader(url: URL, { page, limit, total }: { page: number; limit: number; total: number }): string {
  const last = Math.max(1, Math.ceil(total / limit))
  const params = new URLSearchParams(url.search)
  params.set('page', '1')
  params.set('limit', String(limit))
  const at = (target: number) => {
    params.set('page', String(target))
    return `<${url.pathname}?${params}>`
  }
  const links = [`${at(1)}; rel="first"`]
  if (page > 1) links.push(`${at(Math.min(page - 1, last))}; rel="prev"`)
  if (page < last) links.push(`${at(page + 1)}; rel="next"`)
  links.push(`${at(last)}; rel="last"`)
  return links.join(', ')
}
