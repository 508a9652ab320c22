import { describe, expect, it } from 'vitest'
import { SeededRandom } from '../../../kernel/random/random.js'
import { parseAxis } from './axes.js'
import { type EntanglementMode, measure, OUTCOMES, opposite, type ParticleState, sameOutcomeProbability } from './entanglement.js'

const axis = (text: string) => parseAxis(text)!
const fresh: ParticleState = { state: 'superposition' }
const sign = (outcome: string) => (outcome === 'spin_up' || outcome === 'horizontal' ? 1 : -1)

/** E(a, b) over `n` fresh pairs: particle A measured along a, then B along b. */
function correlation(mode: EntanglementMode, a: string, b: string, n: number, random: SeededRandom): number {
  let sum = 0
  for (let i = 0; i < n; i++) {
    const first = measure(mode, fresh, fresh, axis(a), random.next)
    const second = measure(mode, first.partner, first.measured, axis(b), random.next)
    sum += sign(first.measured.state) * sign(second.measured.state)
  }
  return sum / n
}

describe('entanglement physics (D17)', () => {
  it('gives each first outcome probability 1/2 and collapses the partner to the opposite along the same axis', () => {
    const random = new SeededRandom(11)
    for (const mode of ['spin', 'polarization'] as const) {
      const n = 40_000
      const along = axis('30deg')
      let plus = 0
      let wrong = 0
      for (let i = 0; i < n; i++) {
        const result = measure(mode, fresh, fresh, along, random.next)
        const { measured, partner } = result
        if (!result.partnerCollapsed || partner.state !== opposite(measured.state) || partner.axis !== along || measured.axis !== along) wrong++
        if (measured.state === OUTCOMES[mode][0]) plus++
      }
      expect(wrong).toBe(0)
      // σ = 0.5/√n = 0.0025: the bound is 6σ wide.
      expect(Math.abs(plus / n - 0.5)).toBeLessThan(0.015)
    }
  })

  it('knows the same-outcome probabilities: cos²(θ/2) for spin, cos²θ for polarization', () => {
    const cases: Array<[string, string, number, number]> = [
      ['z-axis', 'z-axis', 1, 1],
      ['z-axis', '60deg', 0.75, 0.25],
      ['z-axis', 'x-axis', 0.5, 0],
      ['z-axis', 'y-axis', 0.5, 0],
      ['0deg', '45deg', (1 + Math.SQRT1_2) / 2, 0.5],
      ['z-axis', '180deg', 0, 1],
      ['-45deg', '135deg', 0, 1],
    ]
    for (const [from, to, spin, polarization] of cases) {
      expect(sameOutcomeProbability('spin', axis(from), axis(to)), `spin ${from}→${to}`).toBeCloseTo(spin, 10)
      expect(sameOutcomeProbability('polarization', axis(from), axis(to)), `polarization ${from}→${to}`).toBeCloseTo(polarization, 10)
    }
  })

  it('measures a collapsed particle by those probabilities and leaves the partner alone', () => {
    const random = new SeededRandom(5)
    const n = 40_000
    for (const [mode, expected] of [
      ['spin', 0.75],
      ['polarization', 0.25],
    ] as const) {
      const before = { state: OUTCOMES[mode][0], axis: axis('z-axis') }
      const partner = { state: OUTCOMES[mode][1], axis: axis('z-axis') }
      const tilted = axis('60deg')
      let same = 0
      let disturbed = 0
      for (let i = 0; i < n; i++) {
        const result = measure(mode, before, partner, tilted, random.next)
        if (result.partnerCollapsed || result.partner !== partner || result.measured.axis !== tilted) disturbed++
        if (result.measured.state === before.state) same++
      }
      expect(disturbed).toBe(0)
      expect(partner).toEqual({ state: OUTCOMES[mode][1], axis: axis('z-axis') })
      // σ = √(p(1-p)/n) ≈ 0.0022.
      expect(Math.abs(same / n - expected), mode).toBeLessThan(0.012)
    }
  })

  it('is certain along the same axis: the partner always opposite, a repeat always the same', () => {
    const random = new SeededRandom(3)
    for (const mode of ['spin', 'polarization'] as const) {
      for (const name of ['x-axis', 'y-axis', 'z-axis', '22.5deg', '-45deg', '137.25deg']) {
        let broken = 0
        for (let i = 0; i < 500; i++) {
          const first = measure(mode, fresh, fresh, axis(name), random.next)
          const partner = measure(mode, first.partner, first.measured, axis(name), random.next)
          const again = measure(mode, first.measured, first.partner, axis(name), random.next)
          if (partner.measured.state !== opposite(first.measured.state) || again.measured.state !== first.measured.state) broken++
        }
        expect(broken, `${mode} ${name}`).toBe(0)
      }
    }
  })

  it('reproduces the quantum correlations: E = -cos θ for spin, -cos 2θ for polarization', () => {
    const random = new SeededRandom(7)
    const n = 20_000
    // σ(E) = √((1 - E²)/n) ≤ 0.0071: bounds of 0.03 are over 4σ.
    expect(correlation('spin', '0deg', '0deg', n, random)).toBe(-1)
    expect(Math.abs(correlation('spin', '0deg', '60deg', n, random) + 0.5)).toBeLessThan(0.03)
    expect(Math.abs(correlation('spin', 'x-axis', 'y-axis', n, random))).toBeLessThan(0.03)
    expect(Math.abs(correlation('polarization', '0deg', '30deg', n, random) + 0.5)).toBeLessThan(0.03)
    expect(correlation('polarization', '0deg', '90deg', n, random)).toBe(1)
  })

  it('draws exactly once per measurement, so the seeded stream stays in step (D24)', () => {
    let draws = 0
    const counting = () => {
      draws++
      return 0.25
    }
    const first = measure('spin', fresh, fresh, axis('z-axis'), counting)
    measure('spin', first.measured, first.partner, axis('z-axis'), counting)
    measure('spin', first.partner, first.measured, axis('x-axis'), counting)
    expect(draws).toBe(3)
  })

  it('refuses a pair with only one particle in superposition', () => {
    const definite = { state: 'spin_up', axis: axis('z-axis') } as const
    expect(() => measure('spin', fresh, definite, axis('z-axis'), Math.random)).toThrow(/Inconsistent pair/)
    expect(() => measure('spin', definite, fresh, axis('z-axis'), Math.random)).toThrow(/Inconsistent pair/)
  })
})
