import { CommanderError } from 'commander'
import { endQuietlyOnBrokenPipe } from './broken-pipe.js'
import { buildProgram } from './program.js'

/**
 * The CLI's single exit point: any failure is printed as one line on stderr
 * (never a stack trace) and the process exits non-zero.
 */
export async function main(argv: string[], version: string): Promise<void> {
  endQuietlyOnBrokenPipe([process.stdout, process.stderr])
  const program = buildProgram(version)
  try {
    await program.parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (or the help/version text).
      process.exitCode = error.exitCode
      return
    }
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`multi-area-mock: ${message.split('\n')[0]}\n`)
    process.exitCode = 1
  }
}
