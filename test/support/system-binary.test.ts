import { describe, expect, it } from 'vitest'
import { requireBinary } from './system-binary.js'

describe('a test that needs a missing system program', () => {
  it('fails with one line naming the Debian package to install', () => {
    let thrown: unknown
    try {
      requireBinary('/usr/bin/no-such-program-mam', 'no-such-program-mam')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Error)
    const { message, stack } = thrown as Error
    expect(message).toContain('apt-get install -y no-such-program-mam')
    expect(`${stack}`.split('\n')).toEqual([`Error: ${message}`])
  })

  it('passes when the program is there', () => {
    expect(() => requireBinary('/bin/sh', 'dash')).not.toThrow()
  })
})
