/**
 * The current TypeScript (7, the native compiler) for the consumer matrix. It
 * lives in .ci/typescript7 with its own lockfile: in the main one its `tsc`
 * bin would clash with the project's TypeScript 5.9. Installed from the npm
 * registry on first use, again when its lockfile changes (like .ci/node24).
 */
import { execFile } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** Path of TypeScript 7's `bin/tsc`; undefined (with a warning) when it cannot be installed outside CI. */
export async function typescript7(root: string): Promise<string | undefined> {
  const prefix = join(root, '.ci/typescript7')
  const tsc = join(prefix, 'node_modules/typescript/bin/tsc')
  const installed = join(prefix, 'node_modules/.package-lock.json')
  const fresh = existsSync(tsc) && existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(prefix, 'package-lock.json')).mtimeMs
  if (fresh) return tsc
  try {
    await run('npm', ['ci', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root })
    return tsc
  } catch (error) {
    const message = `doc tests: TypeScript 7 could not be installed into .ci/typescript7 (${String(error).split('\n')[0]})`
    if (process.env.CI) throw new Error(message)
    console.warn(`${message}; the projects are type-checked with TypeScript 5.9 only`)
    return undefined
  }
}
