import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ConfigError } from '../../kernel/errors/config-error.js'
import type { SimulatorEngine } from '../../simulator/engine.js'
import type { SimulatorOptions } from '../../simulator/options.js'
import type { Recorder, TrafficAnswer } from '../../simulator/recording/recorder.js'
import { recorderFor, recordingSummaryLines } from '../../simulator/recording/recorder-setup.js'
import type { RecordingControl, RecordingSaved } from '../../simulator/recording/recording-routes.js'
import { resolveUserPath } from '../files/file-safety.js'
import { replaceFile } from '../files/safe-replace.js'

/** A recording as the server shows it: where it is written, and what the last write gave. */
export interface RecordingFile {
  readonly file: string
  /** What the last save wrote (`undefined` before the first). */
  readonly lastSaved: RecordingSaved | undefined
}

/**
 * `serve --proxy … --record <file>`: what the proxied areas' upstreams answer,
 * read into a scenario as it arrives, and written to the file on
 * `POST /__mock/recording/save` and when the server stops. A write replaces
 * the file whole (a crash leaves the old one or the new one), one at a time.
 *
 * @example
 * const recording = await TrafficRecording.open(recorder, 'recorded.json')
 * const proxy = new AreaProxy(engine, origin, { targets, timeoutMs, record: recording.record })
 * await recording.save() // { file, areas, summary }
 */
export class TrafficRecording implements RecordingControl, RecordingFile {
  readonly #recorder: Recorder
  readonly #target: string
  #saving: Promise<unknown> = Promise.resolve()
  #lastSaved: RecordingSaved | undefined

  private constructor(recorder: Recorder, target: string) {
    this.#recorder = recorder
    this.#target = target
  }

  /**
   * The recording of a server's proxied areas into its start scenario, its
   * file checked before the server starts (its folder exists; it is no folder).
   */
  static async open(engine: SimulatorEngine, options: SimulatorOptions, areas: readonly string[], path: string): Promise<TrafficRecording> {
    const target = await resolveUserPath(path, 'recording file')
    const [file, folder] = await Promise.all([stat(target).catch(() => undefined), stat(dirname(target)).catch(() => undefined)])
    if (file?.isDirectory()) throw new ConfigError(`The recording file ${path} is a folder; name a file, e.g. ${path.replace(/\/+$/, '')}/recorded.json.`)
    if (!folder?.isDirectory()) throw new ConfigError(`The folder of the recording file ${path} does not exist.`)
    const recorder = recorderFor({
      dispatcher: engine.dispatcher,
      areas,
      scenario: options.scenario,
      scenarios: options.scenarios,
      seed: engine.seed,
      description: `Recorded by multi-area-mock from the answers of ${areas.join(', ')} (serve --record).`,
    })
    return new TrafficRecording(recorder, target)
  }

  /** The file the scenario is written to. */
  get file(): string {
    return this.#target
  }

  get lastSaved(): RecordingSaved | undefined {
    return this.#lastSaved
  }

  /** Reads one upstream answer; a reading that fails never touches the answer, which is written already. */
  readonly record = (answer: TrafficAnswer): void => {
    try {
      this.#recorder.record(answer)
    } catch (error) {
      process.stderr.write(`multi-area-mock: could not record ${answer.method} ${new URL(answer.url).pathname}: ${error instanceof Error ? error.message : String(error)}\n`)
    }
  }

  /** Writes the scenario recorded so far; resolves with what each area gave. */
  save(): Promise<RecordingSaved> {
    const saved = this.#saving.then(async () => {
      const text = `${JSON.stringify(this.#recorder.scenario(), null, 2)}\n`
      try {
        await replaceFile(this.#target, (file) => file.writeFile(text))
      } catch (error) {
        throw new ConfigError(`Could not write the recording to ${this.#target}: ${error instanceof Error ? error.message : String(error)}`)
      }
      const areas = this.#recorder.summary()
      this.#lastSaved = { file: this.#target, areas, summary: recordingSummaryLines(areas) }
      return this.#lastSaved
    })
    this.#saving = saved.catch(() => undefined)
    return saved
  }
}
