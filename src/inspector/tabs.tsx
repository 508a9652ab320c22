import type { ComponentChildren } from 'preact'
import { useRef } from 'preact/hooks'

export interface Tab {
  id: string
  label: string
  render: () => ComponentChildren
}

/**
 * Tabs as the ARIA pattern has them: a tablist whose arrow, Home and End keys
 * move between tabs, and one tabpanel shown at a time.
 *
 * @example
 * <Tabs label="Areas" tabs={[{ id: 'users', label: 'Users', render: () => <Users /> }]} selected={tab} onSelect={setTab} />
 */
export function Tabs({ label, tabs, selected, onSelect }: { label: string; tabs: Tab[]; selected: string; onSelect: (id: string) => void }) {
  const list = useRef<HTMLDivElement>(null)
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0]
  const move = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.id === current?.id)
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key]
    if (next === undefined) return
    event.preventDefault()
    const tab = tabs[(next + tabs.length) % tabs.length]!
    onSelect(tab.id)
    list.current?.querySelector<HTMLButtonElement>(`#tab-${tab.id}`)?.focus()
  }
  return (
    <div class="tabs">
      <div role="tablist" aria-label={label} ref={list} onKeyDown={move}>
        {tabs.map((tab) => (
          <button
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            key={tab.id}
            aria-selected={tab.id === current?.id}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === current?.id ? 0 : -1}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current && (
        <div role="tabpanel" id={`panel-${current.id}`} aria-labelledby={`tab-${current.id}`} class="tabpanel">
          {current.render()}
        </div>
      )}
    </div>
  )
}
