import type { AreaId } from '../areas/registry.js'
import { createSimulator } from '../simulator/create-simulator.js'
import { EXAMPLE_CLOCK } from '../simulator/openapi/openapi.js'

export interface OpenApiFlags {
  area?: AreaId
  root?: AreaId[]
  server: string
}

/** `multi-area-mock openapi`: prints the OpenAPI document of the areas as `serve` would mount them. */
export async function printOpenApi(flags: OpenApiFlags): Promise<void> {
  // The document depends on the mounts, never on the world: an empty one seeds at once.
  const sim = createSimulator({ scenario: 'empty', clock: EXAMPLE_CLOCK, root: flags.root ?? [] })
  const doc = await sim.openapi({ origin: flags.server, ...(flags.area ? { area: flags.area } : {}) })
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`)
}
