import { GenericContainer, getContainerRuntimeClient, Wait, type WaitStrategy } from 'testcontainers'
import { looksLikePath, scenarioFileName } from '../node/files/scenario-file.js'
import { isLoopbackHost } from '../node/gate/loopback-host.js'
import type { ScenarioInput } from '../simulator/state/scenario-schema.js'
import { StartedMultiAreaMockContainer } from './started-multi-area-mock-container.js'

/** The port the image's server listens on inside the container (its `CMD`: `serve --host 0.0.0.0 --port 4000`). */
export const MULTI_AREA_MOCK_PORT = 4000

/** The image `docker build -t multi-area-mock .` makes from the repository's Dockerfile (docs/container.md). */
export const DEFAULT_MULTI_AREA_MOCK_IMAGE = 'multi-area-mock:latest'

/** Where scenario files given to `withScenario()` are copied in the container. */
const SCENARIO_DIR = '/scenarios'

/**
 * The simulator server as a Testcontainers for Node container: the image built
 * from this repository's Dockerfile, configured through its
 * `MULTI_AREA_MOCK_*` variables, ready once `/__mock/health` answers 200.
 * `start()` gives its base URL and a control client (`MockWorld`) of the
 * default world. When the test reaches the container runtime on this machine
 * (`localhost`, or `TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1`), the port is
 * published on 127.0.0.1 only: no other machine reaches the control API.
 *
 * @example
 * const mock = await new MultiAreaMockContainer('multi-area-mock:latest')
 *   .withScenario('empty')
 *   .withSeed(42)
 *   .withControlToken('s3cret')
 *   .start()
 * await fetch(`${mock.baseUrl}/core/users`)
 * await mock.control.clock.advance('1h')
 * await mock.stop()
 */
export class MultiAreaMockContainer extends GenericContainer {
  #controlToken: string | undefined
  #waitChosen = false

  constructor(image: string = DEFAULT_MULTI_AREA_MOCK_IMAGE) {
    super(image)
    this.withExposedPorts(MULTI_AREA_MOCK_PORT)
  }

  /**
   * The world to start with: a built-in scenario's name (`'empty'`), a
   * scenario file on this machine (`'./scenarios/team.json'`, copied into the
   * container), or a scenario object (written there as `<name>.json`, so the
   * server knows it by `name`, default `'scenario'`).
   */
  withScenario(scenario: string | ScenarioInput, name = 'scenario'): this {
    if (typeof scenario === 'string' && !looksLikePath(scenario)) return this.withEnvironment({ MULTI_AREA_MOCK_SCENARIO: scenario })
    const target = `${SCENARIO_DIR}/${typeof scenario === 'string' ? scenarioFileName(scenario) : `${name}.json`}`
    if (typeof scenario === 'string') this.withCopyFilesToContainer([{ source: scenario, target, mode: 0o644 }])
    else this.withCopyContentToContainer([{ content: JSON.stringify(scenario), target, mode: 0o644 }])
    return this.withEnvironment({ MULTI_AREA_MOCK_SCENARIO: target })
  }

  /** The seed of every generated value and id (`--seed`). */
  withSeed(seed: number): this {
    return this.withEnvironment({ MULTI_AREA_MOCK_SEED: String(seed) })
  }

  /** A frozen ISO 8601 instant for the world's clock, or `'system'` (`--clock`). */
  withClock(instant: string): this {
    return this.withEnvironment({ MULTI_AREA_MOCK_CLOCK: instant })
  }

  /**
   * Requires `Authorization: Bearer <token>` on the control API (`--control-token`),
   * given in the environment, never on the command line. The readiness check
   * and the started container's control client send it.
   */
  withControlToken(token: string): this {
    this.#controlToken = token
    return this.withEnvironment({ MULTI_AREA_MOCK_CONTROL_TOKEN: token })
  }

  /**
   * Shares every world with the other replicas on this Redis (`--store`),
   * `redis://host:port[/db]` as the container reaches it (on a shared
   * network, by the Redis container's alias).
   */
  withStore(url: string): this {
    return this.withEnvironment({ MULTI_AREA_MOCK_STORE: url })
  }

  /** Replaces the readiness check (default: `GET /__mock/health` answers 200). */
  override withWaitStrategy(waitStrategy: WaitStrategy): this {
    this.#waitChosen = true
    return super.withWaitStrategy(waitStrategy)
  }

  /**
   * Starts the container, resolved once `GET /__mock/health` answers 200 (with
   * the control token, if any); a server that exits first (a refused option)
   * fails it at once, with the container's last lines.
   */
  override async start(): Promise<StartedMultiAreaMockContainer> {
    if (!this.#waitChosen) {
      const health = Wait.forHttp('/__mock/health', MULTI_AREA_MOCK_PORT, { abortOnContainerExit: true }).forStatusCode(200)
      super.withWaitStrategy(this.#controlToken === undefined ? health : health.withHeaders({ authorization: `Bearer ${this.#controlToken}` }))
    }
    const { host } = (await getContainerRuntimeClient()).info.containerRuntime
    if (isLoopbackHost(host)) this.#publishOnLoopback()
    return new StartedMultiAreaMockContainer(await super.start(), MULTI_AREA_MOCK_PORT, this.#controlToken)
  }

  /** Every published port bound to 127.0.0.1 (Testcontainers binds every interface, and has no option for it). */
  #publishOnLoopback(): void {
    const bindings = this.hostConfig.PortBindings as Record<string, { HostIp?: string; HostPort?: string }[]> | undefined
    for (const list of Object.values(bindings ?? {})) for (const binding of list) binding.HostIp ??= '127.0.0.1'
  }
}
