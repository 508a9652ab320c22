// Types for examples/chsh.mjs, so the test suite can run the same experiment in-process.

export type Mode = 'spin' | 'polarization'

export interface ChshRun {
  mode: Mode
  pairs: number
  correlations: Array<{ a: string; b: string; E: number; predicted: number }>
  S: number
  /** Share of first measurements that gave spin_up (spin) or horizontal (polarization). */
  firstPlus: number
}

export const CHSH_AXES: Record<Mode, { a: [string, string]; b: [string, string] }>

export function predictedCorrelation(mode: Mode, axisA: string, axisB: string): number

export function runChsh(options: {
  url: string
  pairs?: number
  mode?: Mode
  concurrency?: number
  fetch?: (request: Request) => Promise<Response>
}): Promise<ChshRun>

export function formatReport(run: ChshRun, url: string): string
