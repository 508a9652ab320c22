// @ts-check
// The browser row's loads in Chromium: a page in a fresh context, its answer checked and its times read from the page.

/** @typedef {{ evaluated: number, started: number, answered: number }} Load times in ms since navigation start */

/**
 * Loads the simulator page once and returns the JSON it rendered.
 *
 * @example
 * const answer = await captureAnswer(browser, server.url)
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
export async function captureAnswer(browser, url) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${url}/simulator/`)
    await page.waitForSelector('body[data-answered]', { timeout: 30_000 })
    const status = await page.getAttribute('body', 'data-status')
    const text = (await page.textContent('#answer')) ?? ''
    if (status !== '200') throw new Error(`the simulator page answered ${status}: ${text.slice(0, 200)}`)
    JSON.parse(text)
    return text
  } finally {
    await context.close()
  }
}

/**
 * One load of a page in a fresh context: its times, after checking it rendered `answer` with a 200.
 *
 * @example
 * const { answered } = await loadOnce(browser, `${server.url}/msw/`, answer)
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {string} answer
 * @returns {Promise<Load>}
 */
export async function loadOnce(browser, url, answer) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    /** @type {string[]} */
    const errors = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(url)
    await page.waitForSelector('body[data-answered]', { timeout: 30_000 }).catch((error) => {
      throw new Error(`${url} rendered no answer${errors.length ? `: ${errors.join('; ')}` : ''} (${error.message})`)
    })
    /** @type {{ status?: string, evaluated?: string, started?: string, answered?: string, text: string }} */
    const data = await page.evaluate("({ ...document.body.dataset, text: document.querySelector('#answer')?.textContent ?? '' })")
    if (data.status !== '200') throw new Error(`${url} answered ${data.status}: ${data.text.slice(0, 200)}`)
    if (shape(JSON.parse(data.text)) !== shape(JSON.parse(answer))) throw new Error(`${url} rendered another kind of answer than the simulator's first: ${data.text.slice(0, 200)}`)
    return { evaluated: Number(data.evaluated), started: Number(data.started), answered: Number(data.answered) }
  } finally {
    await context.close()
  }
}

/**
 * The keys and list lengths of a JSON value, not its values: a page seeded on the
 * system clock answers other timestamps at every load, but the same users.
 *
 * @param {unknown} value
 * @returns {string}
 */
function shape(value) {
  if (Array.isArray(value)) return `[${value.length}:${value.map(shape).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, inner]) => `${key}:${shape(inner)}`)
      .join(',')}}`
  return typeof value
}
