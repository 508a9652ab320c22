// @ts-check
// The two pages of the browser row (`--browser`): the simulator's and a hand-written msw worker's.

import { LIST_PATH } from './scenarios.js'

/** The request both pages of the browser row (`--browser`) send once their worker is started: Area A's first page of users. */
export const BROWSER_FIRST_PATH = LIST_PATH

/**
 * What both pages do once their mocks are started: one `fetch`, its text put in
 * the page, then the instant (ms since navigation start) noted on `<body>`.
 */
const RENDER_FIRST_ANSWER = `const started = performance.now()
const response = await fetch(${JSON.stringify(BROWSER_FIRST_PATH)})
const text = await response.text()
document.querySelector('#answer').textContent = text
Object.assign(document.body.dataset, { status: String(response.status), evaluated: String(evaluated), started: String(started), answered: String(performance.now()) })
`

/**
 * The pages of the browser row (`node bench/run.js --browser`, bench/browser-start.js), side by side:
 * `simulator`, an app that starts `multi-area-mock/browser` with its defaults, and `msw`, the same
 * app with a hand-written msw worker handler answering `answer` (the simulator's own answer, captured
 * first, so both render the same bytes). Each is bundled by esbuild as an app's bundler would.
 *
 * @param {string} answer the JSON text the `msw` page answers
 * @returns {Array<{ key: 'simulator' | 'msw', name: string, app: string }>}
 */
export function browserPages(answer) {
  return [
    {
      key: 'simulator',
      name: 'multi-area-mock/browser',
      app: `import { startBrowserSimulator } from 'multi-area-mock/browser'
const evaluated = performance.now()
await startBrowserSimulator()
${RENDER_FIRST_ANSWER}`,
    },
    {
      key: 'msw',
      name: 'hand-written msw handler',
      app: `import { http, HttpResponse } from 'msw'
import { setupWorker } from 'msw/browser'
const evaluated = performance.now()
const USERS = ${answer}
const worker = setupWorker(http.get(${JSON.stringify(BROWSER_FIRST_PATH)}, () => HttpResponse.json(USERS)))
await worker.start()
${RENDER_FIRST_ANSWER}`,
    },
  ]
}
