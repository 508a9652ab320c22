import type { ActionState } from './action.js'

/** An action's error (announced) or confirmation, in one line under the control that ran it. */
export function Outcome({ state }: { state: ActionState }) {
  if (state.error)
    return (
      <p class="outcome error" role="alert">
        {state.error}
      </p>
    )
  if (state.done)
    return (
      <p class="outcome done" role="status">
        {state.done}
      </p>
    )
  return null
}
