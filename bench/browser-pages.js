// @ts-check
// The pages of the browser row (`--browser`): the simulator's, a hand-written msw worker's, and the floors of the simulator's stack.

import { join } from 'node:path'
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
 * @returns {Array<{ key: string, name: string, app: string }>}
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

/**
 * What the simulator's stack costs by itself before a first answer, with none
 * of the simulator's code (`BENCH_BROWSER_FLOORS=1`): the `msw` page, whose
 * handler first awaits a chunk loaded while msw's worker starts, as the
 * simulator's deferred handler does. `zod`: zod with 60 six-field object
 * schemas, one parse; `faker`: faker with the world's locale lists
 * (fixtures/faker-en.json), 48 users drawn; `zod-faker`: both chunks.
 *
 * @param {string} answer the JSON text every page answers
 * @param {string} root the repository (where zod, faker and the locale lists are)
 * @returns {{ pages: Array<{ key: string, name: string, app: string }>, modules: Record<string, string> }}
 */
export function floorPages(answer, root) {
  const modules = {
    'floor-zod.js': `import * as z from 'zod'
const schemas = Array.from({ length: 60 }, () => z.strictObject({ id: z.string().min(1), name: z.string().max(100).describe('a name'), email: z.email(), page: z.coerce.number().int().min(1).optional(), kind: z.enum(['a', 'b', 'c']), at: z.iso.datetime().optional() }))
export const ready = schemas[0].safeParse({ id: '1', name: 'a', email: 'a@example.com', kind: 'a' }).success
`,
    'floor-faker.js': `import { base, Faker } from '@faker-js/faker'
import en from ${JSON.stringify(join(root, 'fixtures', 'faker-en.json'))} with { type: 'json' }
const faker = new Faker({ locale: [en, base] })
faker.seed(1)
export const ready = Array.from({ length: 48 }, () => ({ name: faker.person.fullName(), email: faker.internet.email(), company: faker.company.name() })).length === 48
`,
  }
  /** @param {string[]} chunks */
  const app = (chunks) => `import { http, HttpResponse } from 'msw'
import { setupWorker } from 'msw/browser'
const evaluated = performance.now()
const USERS = ${answer}
const loading = Promise.all([${chunks.map((chunk) => `import('./${chunk}')`).join(', ')}]).then((loaded) => { if (!loaded.every((chunk) => chunk.ready)) throw new Error('a floor chunk failed') })
const worker = setupWorker(http.get(${JSON.stringify(BROWSER_FIRST_PATH)}, async () => { await loading; return HttpResponse.json(USERS) }))
await Promise.all([worker.start(), loading])
${RENDER_FIRST_ANSWER}`
  return {
    modules,
    pages: [
      { key: 'zod', name: 'msw page + zod, 60 schemas', app: app(['floor-zod.js']) },
      { key: 'faker', name: 'msw page + faker, 48 users', app: app(['floor-faker.js']) },
      { key: 'zod-faker', name: 'msw page + both', app: app(['floor-zod.js', 'floor-faker.js']) },
    ],
  }
}
