import type { EventEmitter } from 'node:events'

/**
 * Ends the CLI quietly when the reader of its output goes away, as Unix tools
 * do on SIGPIPE: `multi-area-mock --help | head -3` would otherwise end in
 * Node's "Unhandled 'error' event" and a stack trace (EPIPE). The exit code is
 * what the command had so far (0 unless it failed). A stream that fails in
 * another way cannot report it either, so the CLI ends with 1.
 *
 * @example
 * endQuietlyOnBrokenPipe([process.stdout, process.stderr])
 */
export function endQuietlyOnBrokenPipe(streams: EventEmitter[], exit: (code: number) => void = (code) => process.exit(code)): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      const soFar = typeof process.exitCode === 'number' ? process.exitCode : 0
      exit(error.code === 'EPIPE' ? soFar : 1)
    })
  }
}
