import { AbstractStartedContainer, type StartedTestContainer } from 'testcontainers'
import { createMockWorld, type CreateMockWorldOptions, MockWorld } from '../testing/mock-world.js'
import { DEFAULT_WORLD_ID } from '../simulator/worlds/worlds.js'

/**
 * A running `MultiAreaMockContainer`: where to reach it from the test
 * (`baseUrl`), and the control API over HTTP: `control`, the default world,
 * and `createWorld()`, an isolated one. Both are `MockWorld`s, the client
 * `createMockWorld()` and the Playwright fixture give, the control token sent
 * when the container has one.
 *
 * @example
 * await mock.control.faults.add({ route: '/core/users', status: 503 })
 * const world = await mock.createWorld({ scenario: 'empty' })
 * await world.fetch('/core/users')
 */
export class StartedMultiAreaMockContainer extends AbstractStartedContainer {
  /** `http://<host>:<mapped port>`: the server as this process reaches it. */
  readonly baseUrl: string
  /** The default world's control API (`/__mock/...`): its clock, faults, journal and state. */
  readonly control: MockWorld
  readonly #controlToken: string | undefined

  /** Made by `MultiAreaMockContainer.start()`, with the server's port as the test reaches it. */
  constructor(started: StartedTestContainer, port: number, controlToken: string | undefined) {
    super(started)
    // An IPv6 host goes in brackets; a name or an IPv4 address as it is.
    const host = started.getHost()
    this.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${started.getMappedPort(port)}`
    this.#controlToken = controlToken
    this.control = new MockWorld(DEFAULT_WORLD_ID, { serverUrl: this.baseUrl, controlToken })
  }

  /** A new isolated world on this server (`POST /__mock/worlds`), deleted with `world.delete()`. */
  createWorld(options: Omit<CreateMockWorldOptions, 'controlToken'> = {}): Promise<MockWorld> {
    return createMockWorld(this.baseUrl, { ...options, controlToken: this.#controlToken })
  }
}
