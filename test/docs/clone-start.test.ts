/**
 * In a clone, the README's start command (`npm start`, after `npm ci` built
 * dist/) starts the server at once: no rebuild, banner within 2 s. `npx
 * multi-area-mock serve` in a clone took 11–20 s before (npx installed the
 * clone as a package, `prepare` included), which is why the README says
 * `npm start` there. Needs `npm run build` (part of `npm test`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cleanEnv, startServer } from './support/shell.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

describe('a clone’s first start', () => {
  it('`npm start` runs the built CLI and builds nothing', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(scripts.start).toBe('node bin/multi-area-mock.js serve')
    expect(scripts.prestart).toBeUndefined()
  })

  it('`npm start` prints the banner within 2 s of the command', async () => {
    // The better of two starts: one start on a machine shared with other jobs can be slowed by them.
    const times: number[] = []
    for (let attempt = 0; attempt < 2; attempt++) {
      const server = await startServer('npm start --silent -- --port 0 --quiet', ROOT, cleanEnv())
      times.push(server.startMs)
      await server.stop()
    }
    console.log(`clone start: npm start printed its banner after ${times.map((ms) => `${Math.round(ms)} ms`).join(' and ')}`)
    expect(Math.min(...times)).toBeLessThan(2000)
  })
})
