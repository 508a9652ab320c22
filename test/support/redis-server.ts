import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.js'
import { requireBinary } from './system-binary.js'

/** Debian's Redis (`.ci/run` installs it): never the system service, never a container. */
export const REDIS_SERVER = '/usr/bin/redis-server'

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string
  readonly port: number
  /** The temporary folder holding its append-only file. */
  readonly dir: string
  /** Redis's own log so far (for a failing test's message). */
  output(): string
  /** SIGTERM, then waits for it to exit (SIGKILL after 5 s). */
  stop(): Promise<void>
  /** SIGKILL (a crash: only what the append-only file holds survives), then waits for it to exit. */
  kill(): Promise<void>
  /** Starts it again on the same port and folder: the data comes back from the append-only file. */
  start(): Promise<void>
  /** SIGSTOP: the port still accepts connections, nothing answers ("Redis unreachable under load"). */
  pause(): void
  /** SIGCONT after `pause()`. */
  resume(): void
  /** Kills it if it runs and removes its folder. */
  cleanup(): Promise<void>
}

// Every Redis this process started and has not seen exit, and every folder not cleaned up yet:
// killed and removed when the process exits, whether or not the tests called cleanup().
const running = new Set<number>()
const folders = new Set<string>()
process.once('exit', () => {
  for (const pid of running) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone already.
    }
  }
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
})

// Runs Redis under a small shell that holds the test process's pipe as a lifeline: when the
// test process dies however it dies (a worker killed with SIGKILL runs no 'exit' handler), the
// pipe closes, `read` returns and the shell kills Redis. The shell reports Redis's pid first and
// exits when Redis does, with its status.
const LIFELINE = `
exec 3<&0
"$0" "$@" </dev/null &
redis=$!
echo "pid $redis"
{ read _ <&3; kill -9 $redis 2>/dev/null; } &
watcher=$!
wait $redis
status=$?
kill $watcher 2>/dev/null
exit $status
`

/**
 * Starts Debian's `redis-server` on a free 127.0.0.1 port in a fresh temporary folder, with the
 * durability replicas ask of it (append-only file, `appendfsync always`, no RDB saves), and
 * resolves once it answers PING. `args` are added to its command line (say
 * `['--requirepass', 'secret']`).
 *
 * @example
 * const redis = await startRedis()
 * const log = await RedisLog.connect({ url: redis.url, name: 'test' })
 * await redis.cleanup()
 */
export async function startRedis(options: { args?: string[]; timeoutMs?: number } = {}): Promise<RedisServer> {
  requireBinary(REDIS_SERVER, 'redis-server')
  const dir = mkdtempSync(join(tmpdir(), 'mam-redis-'))
  folders.add(dir)
  const timeoutMs = options.timeoutMs ?? 10_000
  let port = 0
  let child: ChildProcess | undefined
  let pid: number | undefined
  let exited: Promise<void> = Promise.resolve()
  let log = ''

  const launch = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always']
    args.push('--protected-mode', 'yes', '--daemonize', 'no', '--logfile', '', '--loglevel', 'warning', ...(options.args ?? []))
    const shell = spawn('/bin/sh', ['-c', LIFELINE, REDIS_SERVER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    child = shell
    shell.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const match = /^pid (\d+)$/m.exec(chunk)
      if (match && pid === undefined) running.add((pid = Number(match[1])))
      log += chunk.replace(/^pid \d+\n/m, '')
    })
    shell.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk))
    exited = new Promise((resolve) =>
      shell.once('exit', () => {
        if (pid !== undefined) running.delete(pid)
        pid = undefined
        child = undefined
        resolve()
      }),
    )
    const deadline = Date.now() + timeoutMs
    while (!(await answersPing(port))) {
      if (child !== shell) throw new Error(`redis-server exited before answering on port ${port}:\n${log}`)
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port} within ${timeoutMs} ms:\n${log}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  const signal = (name: NodeJS.Signals): void => {
    try {
      if (pid !== undefined) process.kill(pid, name)
    } catch {
      // It exited on its own; the shell's exit will say so.
    }
  }
  const halt = async (name: NodeJS.Signals): Promise<void> => {
    const shell = child
    if (shell === undefined) return
    signal('SIGCONT')
    signal(name)
    // Closing the lifeline kills Redis too, even before its pid was read.
    if (name === 'SIGKILL' || pid === undefined) shell.stdin!.end()
    const timer = setTimeout(() => {
      signal('SIGKILL')
      shell.stdin!.end()
    }, 5_000)
    await exited
    clearTimeout(timer)
  }

  // A free port can be taken between finding it and Redis binding it: try a few.
  for (let attempt = 1; ; attempt++) {
    port = await freePort()
    try {
      await launch()
      break
    } catch (error) {
      await halt('SIGKILL')
      if (attempt === 3 || !/in use/i.test(log)) {
        rmSync(dir, { recursive: true, force: true })
        folders.delete(dir)
        throw error
      }
    }
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    output: () => log,
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    start: async () => {
      if (child === undefined) await launch()
    },
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    cleanup: async () => {
      await halt('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
      folders.delete(dir)
    },
  }
}

/** Whether Redis answers PING on the port (NOAUTH counts: it is up, just asking for a password). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    const done = (up: boolean) => {
      socket.destroy()
      resolve(up)
    }
    socket.setTimeout(500, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString('latin1'))))
  })
}
