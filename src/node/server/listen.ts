import type { Server } from 'node:http'
import { ConfigError } from '../../kernel/errors/config-error.js'

/**
 * Starts `server` listening on `host:port`; a port in use, one not allowed or
 * a host that is no local address is refused with a one-line `ConfigError`.
 *
 * @example
 * await listen(server, 4000, '127.0.0.1') // or a ConfigError: "Port 4000 on 127.0.0.1 is already in use; ..."
 */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const refuse = (error: unknown) => reject(listenError(error, host, port))
    server.once('error', refuse)
    server.listen(port, host, () => {
      server.off('error', refuse)
      resolve()
    })
  })
}

function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'EADDRINUSE') return new ConfigError(`Port ${port} on ${host} is already in use; choose another with --port, or --port 0 for a free one.`)
  if (code === 'EACCES') return new ConfigError(`Not allowed to listen on ${host}:${port}; choose a port above 1023.`)
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new ConfigError(`Cannot listen on host "${host}": no such local address.`)
  return error instanceof Error ? error : new Error(String(error))
}
