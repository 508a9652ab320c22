import type { ComponentChildren } from 'preact'

/** A header cell: its text, and a class when it has one (`wide-only` columns hide on narrow screens). */
export type Column = string | { label: string; class: string }

/**
 * The shape every list of the inspector shares: a scrollable, captioned table
 * with one header row of column headers. The caller gives the rows, and what
 * follows the table (an empty-state note).
 *
 * @example
 * <DataTable caption="Tokens" columns={['Symbol', 'Name']} after={tokens.length === 0 && <p class="empty">No tokens.</p>}>
 *   {tokens.map((token) => <tr key={token.id}><th scope="row">{token.symbol}</th><td>{token.name}</td></tr>)}
 * </DataTable>
 */
export function DataTable({ caption, columns, children, after }: { caption: string; columns: readonly Column[]; children: ComponentChildren; after?: ComponentChildren }) {
  return (
    <div class="scroll">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th scope="col" key={column}>
                  {column}
                </th>
              ) : (
                <th scope="col" class={column.class} key={column.label}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      {after}
    </div>
  )
}
