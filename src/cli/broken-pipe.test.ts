import { EventEmitter } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { endQuietlyOnBrokenPipe } from './broken-pipe.js'

function failure(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`write ${code}`), { code })
}

describe('endQuietlyOnBrokenPipe', () => {
  afterEach(() => {
    process.exitCode = undefined
  })

  it('ends with the exit code so far when the reader is gone (EPIPE)', () => {
    const stdout = new EventEmitter()
    const exit = vi.fn()
    endQuietlyOnBrokenPipe([stdout], exit)
    stdout.emit('error', failure('EPIPE'))
    expect(exit).toHaveBeenCalledWith(0)

    process.exitCode = 2
    stdout.emit('error', failure('EPIPE'))
    expect(exit).toHaveBeenLastCalledWith(2)
  })

  it('ends with 1 when a stream fails in another way', () => {
    const stderr = new EventEmitter()
    const exit = vi.fn()
    endQuietlyOnBrokenPipe([stderr], exit)
    stderr.emit('error', failure('EIO'))
    expect(exit).toHaveBeenCalledWith(1)
  })
})
