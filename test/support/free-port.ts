import { createServer } from 'node:net'

/**
 * A 127.0.0.1 port nobody listens on now, for a program that takes its port on
 * its command line or in a configuration file.
 *
 * @example
 * const port = await freePort()
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}
