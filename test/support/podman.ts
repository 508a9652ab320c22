import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { freePort } from './free-port.js'
import { requireBinary } from './system-binary.js'

/**
 * Podman as the container tests drive it (Debian's podman and runc; never
 * Docker, never an image registry): the image built from the repository's
 * Dockerfile as a user builds it, containers published on 127.0.0.1 only, and
 * every container removed by the test that made it.
 */
export const PODMAN = '/usr/bin/podman'
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** runc and ulimits within the host's (scripts/container/containers.conf says why): every podman the tests start reads it. */
export const CONTAINERS_CONF = `${ROOT}scripts/container/containers.conf`

/** The image the tests build from the Dockerfile. */
export const TEST_IMAGE = 'localhost/multi-area-mock:test'

/** The base image the Dockerfile starts from, made offline by scripts/container/node-base-image.sh when absent. */
export const BASE_IMAGE = 'docker.io/library/node:20-slim'

/** podman, the runtime and the network stack the tests give it: one line naming the Debian package when one is missing. */
export function requirePodman(): void {
  requireBinary('/usr/bin/podman', 'podman')
  requireBinary('/usr/sbin/runc', 'runc')
  requireBinary('/usr/lib/podman/netavark', 'netavark')
  // Names on a network (a compose service's, a Redis alias): without it, containers find each other by address only.
  requireBinary('/usr/lib/podman/aardvark-dns', 'aardvark-dns')
}

/** The environment every podman (and what runs podman: podman-compose, the API service) gets. */
export function podmanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF, ...extra }
}

const run = promisify(execFile)

/**
 * Runs a program to completion with podman's environment; a failure throws
 * with its output, what says why.
 *
 * @example
 * await command('/usr/bin/podman-compose', ['-p', 'demo', 'up', '-d'], { cwd: 'examples/compose' })
 */
export async function command(
  program: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(program, args, {
      cwd: options.cwd ?? ROOT,
      env: podmanEnv(options.env),
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs ?? 120_000,
      encoding: 'utf8',
    })
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`${program} ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`.trim())
  }
}

/**
 * `podman <args>` to completion.
 *
 * @example
 * const { stdout } = await podman(['ps', '-a'])
 */
export function podman(args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ stdout: string; stderr: string }> {
  return command(PODMAN, args, options)
}

/** One lock for every build the tests start (util-linux's flock): two builds at once on two cores would both be slow. */
const LOCK = '/tmp/multi-area-mock-container-build.lock'
const locked = (args: string[], timeoutMs: number) => command('/usr/bin/flock', [LOCK, ...args], { timeoutMs })

/**
 * The image of the Dockerfile as written (`podman build --pull=never --format
 * docker`, from the repository's root), built by the first test file that asks
 * and taken from podman's layer cache by the others (the build lock keeps two
 * test files from building at once). The base image is made first when absent,
 * as .ci/run does.
 */
export async function imageFromDockerfile(): Promise<string> {
  await baseImage()
  await locked([PODMAN, 'build', '--pull=never', '--format', 'docker', '-t', TEST_IMAGE, '.'], 900_000)
  return TEST_IMAGE
}

/** The stand-ins of redis:7.2 and nginx:1.27 the examples name (scripts/container/stand-in-images.sh), made when absent. */
export async function standInImages(): Promise<void> {
  await baseImage()
  await locked(['scripts/container/stand-in-images.sh'], 600_000)
}

/** node:20-slim, made by scripts/container/node-base-image.sh when absent (with Debian's mmdebstrap). */
async function baseImage(): Promise<void> {
  requirePodman()
  const present = await podman(['image', 'exists', BASE_IMAGE]).then(
    () => true,
    () => false,
  )
  if (present) return
  requireBinary('/usr/bin/mmdebstrap', 'mmdebstrap')
  await locked(['scripts/container/node-base-image.sh'], 600_000)
}

export interface Container {
  readonly id: string
  /** `http://127.0.0.1:<published port>` */
  readonly url: string
  readonly port: number
  /** What the container printed so far, stdout and stderr. */
  logs(): Promise<string>
  /** `podman stop` (SIGTERM, then SIGKILL after `timeoutSeconds`): the exit code. */
  stop(timeoutSeconds?: number): Promise<number>
  /** Stops it if it runs and removes it (what every test ends with). */
  remove(): Promise<void>
}

export interface RunOptions {
  image?: string
  /** `-e NAME=value` each. */
  env?: Record<string, string>
  /** Replaces the image's command (`serve --host 0.0.0.0 --port 4000`). */
  command?: string[]
  /** `-v volume:/data`, say. */
  volumes?: string[]
  /** The control token `/__mock/health` needs, if the server has one. */
  controlToken?: string
}

/**
 * `podman run -d` of the image, published on a free 127.0.0.1 port, resolved
 * once `GET /__mock/health` answers 200 from this machine; a container that
 * exits first fails with its logs.
 *
 * @example
 * const mock = await runImage({ env: { MULTI_AREA_MOCK_SEED: '1' } })
 * await fetch(`${mock.url}/core/users`)
 * await mock.remove()
 */
export async function runImage(options: RunOptions = {}): Promise<Container> {
  const port = await freePort()
  const args = ['run', '-d', '--label', 'multi-area-mock-test=1', '-p', `127.0.0.1:${port}:4000`]
  for (const [name, value] of Object.entries(options.env ?? {})) args.push('-e', `${name}=${value}`)
  for (const volume of options.volumes ?? []) args.push('-v', volume)
  args.push(options.image ?? TEST_IMAGE, ...(options.command ?? []))
  const id = (await podman(args)).stdout.trim()
  const container: Container = {
    id,
    url: `http://127.0.0.1:${port}`,
    port,
    logs: async () => {
      const { stdout, stderr } = await podman(['logs', id])
      return `${stdout}${stderr}`
    },
    stop: async (timeoutSeconds = 10) => {
      await podman(['stop', '-t', String(timeoutSeconds), id])
      return Number((await podman(['inspect', id, '--format', '{{.State.ExitCode}}'])).stdout.trim())
    },
    remove: async () => {
      await podman(['rm', '-f', '-t', '0', id]).catch(() => undefined)
    },
  }
  try {
    await waitHealthy(container, options.controlToken)
  } catch (error) {
    await container.remove()
    throw error
  }
  return container
}

async function waitHealthy(container: Container, token: string | undefined): Promise<void> {
  const until = Date.now() + 30_000
  while (Date.now() < until) {
    const status = await fetch(`${container.url}/__mock/health`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(2_000),
    }).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) return
    const state = (await podman(['inspect', container.id, '--format', '{{.State.Status}}'])).stdout.trim()
    if (state === 'exited') throw new Error(`the container exited before it was healthy:\n${await container.logs()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the container was not healthy within 30 s:\n${await container.logs()}`)
}
