/**
 * The CHSH experiment (D17) through Area C's API: full size in-process
 * (real Requests and Responses through the routes, via `sim.fetch`), and the
 * example script end to end against the real CLI server.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatReport, runChsh } from '../examples/chsh.mjs'
import { createSimulator } from '../src/index.js'
import { type CliServer, startCli } from './support/cli-server.js'

const QUANTUM_BOUND = 2 * Math.SQRT2

/**
 * Pairs per axis setting. Each correlation E has σ = √((1 − E²)/n) = √(0.5/n),
 * so S (four of them) has σ = √(2/n) ≈ 0.032 at n = 2,000: the 0.1 bound is
 * 3.2σ, each |E − prediction| < 0.06 is 3.8σ, and the 50/50 bound of 0.02 on
 * 8,000 first outcomes 3.6σ. Two seeds, so a pass is not one lucky stream.
 * The stream here is the quantum area's alone (`areas: ['quantum']`, empty
 * scenario), so other areas' seeding cannot shift it. ~24,000 requests a run.
 */
const PAIRS = 2_000

describe('CHSH through the API in-process (D17)', () => {
  for (const seed of [1, 2]) {
    for (const mode of ['spin', 'polarization'] as const) {
      it(`seed ${seed}, ${mode}: |S| within 0.1 of 2√2, correlations as predicted, first outcomes 50/50`, async () => {
        const sim = createSimulator({ seed, clock: '2026-01-01T00:00:00Z', scenario: 'empty', areas: ['quantum'] })
        const run = await runChsh({ url: 'http://simulator.test', pairs: PAIRS, mode, concurrency: 32, fetch: (request) => sim.fetch(request)! })
        const report = formatReport(run, `in-process, seed ${seed}`)
        expect(Math.abs(Math.abs(run.S) - QUANTUM_BOUND), report).toBeLessThan(0.1)
        for (const { E, predicted } of run.correlations) expect(Math.abs(E - predicted), report).toBeLessThan(0.06)
        expect(Math.abs(run.firstPlus - 0.5), report).toBeLessThan(0.02)
        expect(sim.db.particles!.count()).toBe(8 * PAIRS)
      })
    }
  }
})

describe('examples/chsh.mjs against the CLI server', () => {
  const SCRIPT = fileURLToPath(new URL('../examples/chsh.mjs', import.meta.url))
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--seed', '3', '--scenario', 'empty', '--quiet'])
  })
  afterAll(async () => {
    await server?.stop()
  })

  function runScript(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: 'pipe' })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      child.once('exit', (code) => resolve({ code, stdout, stderr }))
    })
  }

  // 100 pairs per setting (1,200 requests a mode): σ(S) ≈ 0.14, so |S| > 2.2 is 4.5σ below 2√2, and clearly above 2.
  it('prints the correlations and |S| well above the classical 2, for both modes', async () => {
    const runs = await Promise.all(['spin', 'polarization'].map((mode) => runScript([server.url, '--pairs', '100', '--mode', mode])))
    for (const [index, { code, stdout, stderr }] of runs.entries()) {
      const mode = index === 0 ? 'spin' : 'polarization'
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(stdout).toContain(`${mode} mode, 100 pairs per setting`)
      expect(stdout.match(/^ {2}-?\d+(?:\.\d+)?deg\s+-?\d+(?:\.\d+)?deg\s+-?\d\.\d{3}\s+-?\d\.\d{3}$/gm)).toHaveLength(4)
      const S = Number(/^\|S\| = (\d\.\d{3})/m.exec(stdout)?.[1])
      expect(S, stdout).toBeGreaterThan(2.2)
      expect(S, stdout).toBeLessThan(3.4)
    }
  })

  it('refuses bad usage with exit code 2', async () => {
    const { code, stderr } = await runScript([server.url, '--mode', 'colour'])
    expect(code).toBe(2)
    expect(stderr).toContain('--mode must be spin or polarization')
  })
})
