/**
 * Runs in the browser, on the docs page served without Swagger UI: fetches the
 * OpenAPI document and lists its operations by tag (method, path, summary),
 * as text nodes only, so nothing in the document becomes markup. It is sent as
 * its own source (`docsPageScript`), so it uses nothing from outside its body.
 *
 * @example
 * await listOperations('/__mock/openapi.json', document.getElementById('operations')!)
 */
export async function listOperations(documentUrl: string, container: HTMLElement): Promise<void> {
  const status = container.querySelector('[data-status]')
  const element = (name: string, text?: string, className?: string): HTMLElement => {
    const node = document.createElement(name)
    if (text !== undefined) node.textContent = text
    if (className !== undefined) node.className = className
    return node
  }
  try {
    const response = await fetch(documentUrl, { headers: { accept: 'application/json' } })
    if (!response.ok) throw new Error(`${documentUrl} answered ${response.status}`)
    const document_ = (await response.json()) as {
      tags?: { name: string; description?: string }[]
      paths?: Record<string, Record<string, { summary?: string; tags?: string[]; operationId?: string } | undefined>>
    }
    type Operation = { method: string; path: string; summary: string; id: string }
    const groups = new Map<string, { description: string; operations: Operation[] }>()
    for (const tag of document_.tags ?? []) groups.set(tag.name, { description: tag.description ?? '', operations: [] })
    for (const [path, item] of Object.entries(document_.paths ?? {})) {
      for (const method of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']) {
        const operation = item[method]
        if (!operation) continue
        const tag = operation.tags?.[0] ?? 'other'
        if (!groups.has(tag)) groups.set(tag, { description: '', operations: [] })
        groups.get(tag)!.operations.push({ method: method.toUpperCase(), path, summary: operation.summary ?? '', id: operation.operationId ?? '' })
      }
    }
    for (const [tag, group] of groups) {
      if (group.operations.length === 0) continue
      const section = element('section')
      section.append(element('h2', tag))
      if (group.description) {
        // Markdown's `code` spans as code; the rest stays text.
        const paragraph = element('p')
        group.description.split('`').forEach((part, index) => paragraph.append(index % 2 === 1 ? element('code', part) : document.createTextNode(part)))
        section.append(paragraph)
      }
      const table = element('table')
      const head = element('tr')
      for (const title of ['Method', 'Path', 'Summary']) head.append(element('th', title))
      table.append(head)
      for (const operation of group.operations) {
        const row = element('tr')
        row.id = operation.id
        row.append(element('td', operation.method, `method ${operation.method.toLowerCase()}`))
        const path = element('td')
        path.append(element('code', operation.path))
        row.append(path, element('td', operation.summary))
        table.append(row)
      }
      section.append(table)
      container.append(section)
    }
    status?.remove()
  } catch (error) {
    if (status) status.textContent = `Could not load the document: ${error instanceof Error ? error.message : String(error)}.`
  }
}

/** The docs page's script without Swagger UI: `listOperations` applied to the document at `documentUrl`. */
export function docsPageScript(documentUrl: string): string {
  return `(${listOperations.toString()})(${JSON.stringify(documentUrl)}, document.getElementById('operations'))\n`
}
