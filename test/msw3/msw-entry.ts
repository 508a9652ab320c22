import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The conditions Node's ES module loader matches, in the order an `exports` map lists them. */
const CONDITIONS = new Set(['node', 'import', 'default'])

/**
 * The file that `import 'msw'` (or `'msw/node'`, subpath `./node`) loads from
 * the msw installed in `prefix`, read from msw's own `exports` map as Node's
 * loader reads it: msw 2 ships ES modules as `.mjs` beside CommonJS `.js`,
 * msw 3 only ES modules, so one fixed path cannot serve both lines.
 *
 * @example
 * mswEntry('/repo/.ci/msw-lowest', './node') // '/repo/.ci/msw-lowest/node_modules/msw/lib/node/index.mjs'
 */
export function mswEntry(prefix: string, subpath = '.'): string {
  const msw = join(prefix, 'node_modules', 'msw')
  const { exports } = JSON.parse(readFileSync(join(msw, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
  let target = exports[subpath]
  while (target !== null && typeof target === 'object') {
    const match = Object.entries(target).find(([condition]) => CONDITIONS.has(condition))
    target = match?.[1]
  }
  if (typeof target !== 'string') throw new Error(`msw in ${prefix} exports nothing for ${subpath} under the conditions ${[...CONDITIONS].join(', ')}`)
  return join(msw, target)
}
