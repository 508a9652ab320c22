/**
 * The README's prerequisites are what the tests need: the Debian packages its
 * apt line installs are the ones `.ci/run` installs and the ones the tests
 * name when a program is missing (test/support/system-binary.ts).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

/** Every .ts file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name))
}

describe('the prerequisites of the tests', () => {
  const readme = [...read('README.md').matchAll(/sudo apt-get install -y ([a-z0-9 -]+)\n/g)].map((match) => match[1]!.trim().split(/\s+/))
  const ci = [...read('.ci/run').matchAll(/missing\+=\(([a-z0-9-]+)\)/g)].map((match) => match[1]!)
  const named = new Set<string>()
  for (const file of sources('test').filter((path) => !path.endsWith('system-binary.test.ts'))) {
    for (const match of read(file).matchAll(/requireBinary\([^,]+,\s*'([a-z0-9-]+)'\)/g)) named.add(match[1]!)
  }
  // The balancer test names its programs' packages in a table.
  for (const match of read('test/balancers.test.ts').matchAll(/debianPackage: '([a-z0-9-]+)'/g)) named.add(match[1]!)

  it('are installed by one apt line in the README, the packages .ci/run installs', () => {
    const line = readme.find((packages) => packages.includes('chromium'))
    expect(line, 'the README names the apt line').toBeDefined()
    expect([...line!].sort()).toEqual([...ci].sort())
  })

  it('cover every program a test names when it is missing', () => {
    expect([...named].sort()).toEqual([...ci].sort())
  })
})
