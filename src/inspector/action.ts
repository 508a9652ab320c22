import { useEffect, useState } from 'preact/hooks'
import { problemText } from './api.js'

/** An action's outcome for the page: what went wrong, or what it did. */
export interface ActionState {
  busy: boolean
  error: string | null
  done: string | null
}

/**
 * Runs a user's action (an API call) with its outcome kept for the page: the
 * server's own error message when it refuses, as the API said it.
 *
 * @example
 * const [save, saving] = useAction()
 * <button onClick={() => save(() => api.send('PUT', url, body), 'Saved.')} disabled={saving.busy}>Save</button>
 */
export function useAction(): [(work: () => Promise<unknown>, done?: string) => Promise<boolean>, ActionState] {
  const [state, setState] = useState<ActionState>({ busy: false, error: null, done: null })
  // A confirmation fades after a while; an error stays until the next try.
  useEffect(() => {
    if (state.done === null) return
    const timer = setTimeout(() => setState((now) => (now.done === state.done ? { ...now, done: null } : now)), 4000)
    return () => clearTimeout(timer)
  }, [state.done])
  const run = async (work: () => Promise<unknown>, done?: string) => {
    setState({ busy: true, error: null, done: null })
    try {
      await work()
      setState({ busy: false, error: null, done: done ?? null })
      return true
    } catch (error) {
      setState({ busy: false, error: problemText(error), done: null })
      return false
    }
  }
  return [run, state]
}
