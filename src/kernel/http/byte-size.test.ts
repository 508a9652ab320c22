import { describe, expect, it } from 'vitest'
import { formatByteSize, parseByteSize } from './byte-size.js'

describe('parseByteSize (--body-limit)', () => {
  it('reads bytes and binary units in any case, rounding down to whole bytes', () => {
    expect(parseByteSize('65536')).toBe(65_536)
    expect(parseByteSize('512kb')).toBe(524_288)
    expect(parseByteSize('2MB')).toBe(2_097_152)
    expect(parseByteSize('1.5mb')).toBe(1_572_864)
    expect(parseByteSize('3 KiB')).toBe(3072)
    expect(parseByteSize('0.3kb')).toBe(307)
    expect(parseByteSize('1gb')).toBe(1024 ** 3)
  })

  it('passes signs and bare decimals on, for the option to refuse with its range', () => {
    expect(parseByteSize('-2kb')).toBe(-2048)
    expect(parseByteSize('1.5')).toBe(1.5)
  })

  it('refuses text that is no size, naming it', () => {
    expect(() => parseByteSize('lots')).toThrow('Invalid size "lots": expected bytes, or a number with kb, mb or gb (e.g. "512kb", "1.5mb"; 1kb = 1024 bytes).')
    expect(() => parseByteSize('2 megabytes')).toThrow(/Invalid size "2 megabytes"/)
    expect(() => parseByteSize('')).toThrow(/Invalid size ""/)
  })
})

describe('formatByteSize', () => {
  it('writes whole mebibytes and kibibytes with their unit, anything else in bytes', () => {
    expect(formatByteSize(1024 * 1024)).toBe('1mb')
    expect(formatByteSize(256 * 1024 * 1024)).toBe('256mb')
    expect(formatByteSize(512 * 1024)).toBe('512kb')
    expect(formatByteSize(1500)).toBe('1500 bytes')
  })
})
