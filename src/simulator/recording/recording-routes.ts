import * as z from 'zod'
import { notFound } from '../../kernel/errors/api-error.js'
import { json } from '../../kernel/http/json/json-response.js'
import { defineRoute } from '../../kernel/routing/route.js'

/** What one recorded area gave, as the save answers it. */
const areaRecordingSummary = z.object({
  area: z.string().describe('The area id.'),
  kept: z.record(z.string(), z.int().min(0)).describe('Records of the scenario this area showed, by `section.collection`.'),
  mapped: z.int().min(0).describe('Answers read into records.'),
  unmapped: z.int().min(0).describe('Answers that showed nothing the recorder could keep.'),
  examples: z.array(z.string()).describe('The first few of them, each with why.'),
  left: z.array(z.string()).describe('Records seen but left out of the scenario, each with why.'),
})

/** The answer of `POST /__mock/recording/save`. */
export const recordingSaved = z
  .object({
    file: z.string().describe('The scenario file written (`serve --record`).'),
    areas: z.array(areaRecordingSummary),
    summary: z.array(z.string()).describe('One line per area, as the CLI prints them.'),
  })
  .meta({ id: 'RecordingSaved' })
export type RecordingSaved = z.infer<typeof recordingSaved>

/** A recording the server keeps (`serve --proxy … --record <file>`), as the control API reaches it. */
export interface RecordingControl {
  /** Writes the recorded scenario to its file now. */
  save(): Promise<RecordingSaved>
}

/** What the recording routes work on: the server's recording, `undefined` when it records nothing. */
export interface RecordingRouteContext {
  recording: () => RecordingControl | undefined
}

/**
 * The control API of recording real traffic (issue 34): saving the scenario
 * recorded so far, without stopping the server.
 * Its return type is inferred, not declared: the operation types are read from it.
 */
export function recordingRoutes({ recording }: RecordingRouteContext) {
  return [
    defineRoute({
      method: 'POST',
      path: '/recording/save',
      operationId: 'saveRecording',
      summary: 'Write the recorded scenario to its file',
      description:
        "With `serve --proxy <area>=<url> --record <file>`: writes the scenario recorded so far from the proxied areas' answers to the file (it is also written when the server stops), and answers what each area gave. Without `--record`, a 404. Changes no world.",
      responses: { 200: { body: recordingSaved } },
      errors: [{ code: 'not_found', description: 'The server records nothing (started without `--record`).' }],
      command: false,
      async handle() {
        const current = recording()
        if (current === undefined) throw notFound('This server records nothing: start it with --proxy <area>=<url> --record <file>.')
        return json(await current.save())
      },
    }),
  ]
}
