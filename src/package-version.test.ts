import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { PACKAGE_VERSION } from './package-version.js'

it('names the version package.json has (a bundle says which version took it)', () => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  expect(PACKAGE_VERSION).toBe(version)
})
