import { describe, expect, it } from 'vitest'
import { ACCEPTED_AXES, cosBetween, parseAxis } from './axes.js'

const axis = (text: string) => parseAxis(text)!

describe('measurement axes (D17)', () => {
  it('names x, y and z', () => {
    expect(parseAxis('x-axis')).toEqual({ name: 'x-axis', vector: [1, 0, 0] })
    expect(parseAxis('y-axis')).toEqual({ name: 'y-axis', vector: [0, 1, 0] })
    expect(parseAxis('z-axis')).toEqual({ name: 'z-axis', vector: [0, 0, 1] })
  })

  it('reads angles in the x-z plane from the z-axis towards the x-axis, canonically named', () => {
    const tilted = axis('22.5deg')
    expect(tilted.name).toBe('22.5deg')
    expect(tilted.vector[0]).toBeCloseTo(Math.sin(Math.PI / 8), 12)
    expect(tilted.vector[1]).toBe(0)
    expect(tilted.vector[2]).toBeCloseTo(Math.cos(Math.PI / 8), 12)
    expect(axis('-45deg').vector[0]).toBeCloseTo(-Math.SQRT1_2, 12)
    expect(axis('22.50deg').name).toBe('22.5deg')
    expect(axis('-0deg').name).toBe('0deg')
    expect(axis('007deg').name).toBe('7deg')
    expect(axis('360deg').name).toBe('360deg')
    expect(axis('-360deg').name).toBe('-360deg')
  })

  it('refuses every other form', () => {
    for (const text of [
      '',
      'x',
      'X-axis',
      'x-axis ',
      'w-axis',
      '45',
      '45 deg',
      '45°',
      '45DEG',
      '+45deg',
      '361deg',
      '-360.5deg',
      '1e2deg',
      '.5deg',
      '5.deg',
      'NaNdeg',
      '0.1234567deg',
    ]) {
      expect(parseAxis(text), text).toBeUndefined()
    }
  })

  it('lists the accepted forms for error messages', () => {
    for (const part of ['x-axis', 'y-axis', 'z-axis', '22.5deg', '-45deg', '360deg']) expect(ACCEPTED_AXES).toContain(part)
  })

  it('gives exact cosines where the axes coincide or are opposite, so same-axis outcomes are certain', () => {
    expect(cosBetween(axis('90deg'), axis('x-axis'))).toBe(1)
    expect(cosBetween(axis('0deg'), axis('z-axis'))).toBe(1)
    expect(cosBetween(axis('22.5deg'), axis('22.5deg'))).toBe(1)
    expect(cosBetween(axis('-45deg'), axis('315deg'))).toBe(1)
    expect(cosBetween(axis('180deg'), axis('z-axis'))).toBe(-1)
    expect(cosBetween(axis('x-axis'), axis('z-axis'))).toBe(0)
    expect(cosBetween(axis('y-axis'), axis('45deg'))).toBe(0)
    expect(cosBetween(axis('60deg'), axis('z-axis'))).toBeCloseTo(0.5, 12)
  })
})
