import { existsSync } from 'node:fs'

/**
 * A Debian program some tests drive (never a downloaded copy). When it is
 * missing, the test fails with one line naming the package to install; it is
 * never skipped, so a green run means every test ran.
 *
 * @example
 * requireBinary('/usr/bin/redis-server', 'redis-server')
 */
export function requireBinary(path: string, debianPackage: string): void {
  if (existsSync(path)) return
  const error = new Error(`${path} is missing: this test needs Debian's ${debianPackage} (sudo apt-get install -y ${debianPackage}; README.md, "Working on multi-area-mock")`)
  // One line is the whole message: the stack would only point at this helper.
  error.stack = `${error.name}: ${error.message}`
  throw error
}
