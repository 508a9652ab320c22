import { useState } from 'preact/hooks'

/**
 * Asks for the control token of a server started with `--control-token`.
 * Shown instead of any data until a token the server accepts is given.
 */
export function TokenPrompt({ refused, onToken }: { refused: boolean; onToken: (token: string) => void }) {
  const [token, setToken] = useState('')
  return (
    <main class="prompt">
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (token.trim() !== '') onToken(token.trim())
        }}
      >
        <h2>Control token</h2>
        <p>
          This server guards its control API with a token (<code>--control-token</code> or <code>MULTI_AREA_MOCK_CONTROL_TOKEN</code>). The page keeps it in this tab's session
          storage and sends it in the <code>Authorization</code> header only, never in a URL.
        </p>
        <label>
          Control token
          <input type="password" autoComplete="off" value={token} onInput={(event) => setToken(event.currentTarget.value)} autoFocus />
        </label>
        <button type="submit">Use token</button>
        {refused && (
          <p class="outcome error" role="alert">
            The server refused this token.
          </p>
        )}
      </form>
    </main>
  )
}
