import { expect } from 'vitest'
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/create-simulator.js'
import type { Recorder } from '../../src/simulator/recording/recorder.js'
import { recorderFor } from '../../src/simulator/recording/recorder-setup.js'
import type { SimulatorInstance } from '../../src/simulator/simulator-instance.js'

/** What a recorded read answered: the replay must answer the same. */
export interface RecordedRead {
  status: number
  text: string
  /** The `X-Total-Count` header (`null` when absent). */
  total: string | null
}

/** One answer of a simulator, with its body parsed (`undefined` when empty). */
export interface RecordingAnswer extends RecordedRead {
  json: any
}

/** What `recordingUpstream` is given. */
export interface RecordingUpstreamOptions {
  /** Ids of the areas whose answers are recorded. */
  areas: readonly string[]
  /** Prefix of the paths given to `through` and `ask` (a full `http…` URL is taken as it is). */
  base?: string
  /** A fixed instant for the upstream and the replay. */
  clock?: string
  /** The upstream's other options (`scenario`, an area's options); its seed and clock are the harness's. */
  upstream?: Omit<SimulatorOptions, 'seed' | 'clock'>
}

/** An upstream standing in for the real backend, a recorder of its answers, and what the recording must replay. */
export interface RecordingUpstream {
  upstream: Simulator
  recorder: Recorder
  clock: string
  /** The last answer of each recorded GET, by URL. */
  reads: Map<string, RecordedRead>
  /** Asks the upstream, records its answer as the proxy would (the answer must be an area's) and, for a GET, remembers it. */
  through(method: string, target: string, body?: unknown, headers?: Record<string, string>): Promise<RecordingAnswer>
  /** Asks a simulator, recording nothing. */
  ask(sim: Simulator, method: string, target: string, body?: unknown, headers?: Record<string, string>): Promise<RecordingAnswer>
  /** A simulator loaded with the recorded scenario, with another seed than the upstream's, ready. */
  startReplay(): Promise<Simulator>
  /** Expects `replay` to answer each remembered read (bar those `skip` names) with the same status, body text and total. */
  expectReplayed(replay: Simulator, skip?: (url: string) => boolean): Promise<void>
}

// The upstream's seed differs from the recording's, so a replayed answer can only match if it was recorded.
const UPSTREAM_SEED = 7
const RECORDED_SEED = 99

/**
 * The harness of the areas' recording tests (issue 34): a simulator with
 * another seed stands in for the real backend, what it answers is recorded,
 * and a simulator loaded with the recording must answer the recorded reads
 * the same.
 *
 * @example
 * const { through, startReplay, expectReplayed } = recordingUpstream({ areas: ['quantum'], base: 'http://127.0.0.1:3000/quantum/v1' })
 * await through('POST', '/entangle', { particle_type: 'proton' })
 * await through('GET', '/status')
 * await expectReplayed(await startReplay())
 */
export function recordingUpstream(options: RecordingUpstreamOptions): RecordingUpstream {
  const clock = options.clock ?? '2026-01-01T00:00:00.000Z'
  const upstream = createSimulator({ ...options.upstream, seed: UPSTREAM_SEED, clock })
  const recorder = recorderFor({ dispatcher: (upstream as SimulatorInstance).dispatcher, areas: options.areas, seed: RECORDED_SEED, description: 'test' })
  const reads = new Map<string, RecordedRead>()
  const urlOf = (target: string) => (target.startsWith('http') ? target : `${options.base ?? ''}${target}`)

  const ask = async (sim: Simulator, method: string, target: string, body?: unknown, headers: Record<string, string> = {}): Promise<RecordingAnswer> => {
    const init: RequestInit = body === undefined ? { method, headers } : { method, body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } }
    const response = await sim.fetch(new Request(urlOf(target), init))!
    const text = await response.text()
    return { status: response.status, text, total: response.headers.get('x-total-count'), json: text === '' ? undefined : JSON.parse(text) }
  }

  const through = async (method: string, target: string, body?: unknown, headers?: Record<string, string>): Promise<RecordingAnswer> => {
    const url = urlOf(target)
    const answer = await ask(upstream, method, url, body, headers)
    const requestText = body === undefined ? undefined : JSON.stringify(body)
    expect(recorder.record({ method, url, status: answer.status, requestText, responseText: answer.text }), `${method} ${url} recorded`).toBe(true)
    if (method === 'GET') reads.set(url, { status: answer.status, text: answer.text, total: answer.total })
    return answer
  }

  const startReplay = async () => {
    const sim = createSimulator({ scenario: recorder.scenario(), seed: RECORDED_SEED, clock })
    await sim.ready
    return sim
  }

  const expectReplayed = async (sim: Simulator, skip: (url: string) => boolean = () => false) => {
    for (const [url, read] of reads) {
      if (skip(url)) continue
      const { status, text, total } = await ask(sim, 'GET', url)
      expect({ url, status, text, total }).toEqual({ url, ...read })
    }
  }

  return { upstream, recorder, clock, reads, through, ask, startReplay, expectReplayed }
}
