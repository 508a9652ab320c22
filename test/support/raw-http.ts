import { connect, type Socket } from 'node:net'

/** One HTTP/1.1 response as read off a raw socket. */
export interface RawReply {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  body: string
}

/** A TCP connection to the server at `base` (`http://127.0.0.1:port`), once connected. */
export function openSocket(base: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1', () => {
      socket.off('error', reject)
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

/**
 * Writes `bytes` on a new connection (fetch would normalise what we want to
 * send broken) and collects up to `expected` responses, waiting at most
 * `timeoutMs` for them.
 *
 * @example
 * const [reply] = await rawExchange(base, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 1)
 */
export function rawExchange(base: string, bytes: string | Buffer, expected: number, timeoutMs = 5_000): Promise<RawReply[]> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1', () => socket.write(bytes))
    let data = ''
    const finish = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(parseResponses(data))
    }
    const timer = setTimeout(finish, timeoutMs)
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      data += chunk
      if (parseResponses(data).length >= expected) finish()
    })
    // A reset after the answer arrived is fine: we judge by what was received.
    socket.on('error', () => undefined)
    socket.on('close', finish)
  })
}

/** The complete responses in `data` (latin1 text of what a socket received), skipping `100 Continue`. */
export function parseResponses(data: string): RawReply[] {
  const out: RawReply[] = []
  let rest = data
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n')
    if (!rest.startsWith('HTTP/1.1 ') || headEnd === -1) return out
    const head = rest.slice(0, headEnd)
    const status = Number(head.slice(9, 12))
    const headers: Record<string, string> = {}
    for (const line of head.split('\r\n').slice(1)) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    rest = rest.slice(headEnd + 4)
    if (status === 100) continue
    const length = headers['content-length']
    if (length !== undefined) {
      if (rest.length < Number(length)) return out
      out.push({ status, headers, body: rest.slice(0, Number(length)) })
      rest = rest.slice(Number(length))
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const end = rest.indexOf('\r\n0\r\n\r\n')
      if (end === -1 && !rest.startsWith('0\r\n\r\n')) return out
      const cut = end === -1 ? 5 : end + 7
      out.push({ status, headers, body: dechunk(rest.slice(0, cut)) })
      rest = rest.slice(cut)
    } else {
      out.push({ status, headers, body: rest })
      rest = ''
    }
  }
}

function dechunk(body: string): string {
  let out = ''
  let rest = body
  for (;;) {
    const end = rest.indexOf('\r\n')
    const size = parseInt(rest.slice(0, end), 16)
    if (!size) return out
    out += rest.slice(end + 2, end + 2 + size)
    rest = rest.slice(end + 2 + size + 2)
  }
}
