import { validationFailed } from '../../../kernel/errors/api-error.js'
import { RecordIndex } from '../../../kernel/data/record-index.js'
import type { GeneralCollections } from '../collections.js'
import { RESERVED_KEYS } from './json-object.js'
import type { ResourceRecord } from '../schemas.js'

/**
 * The one store behind `GET /data/{id}` and `PUT /resources/{id}` (D19): an
 * indexed view over the `resources` collection.
 *
 * @example
 * const store = new ResourceStore(collections)
 * await store.replace(1, { title: 'Renamed' }, world.now())
 * toResource(store.get(1)!) // { id: 1, title: 'Renamed', created_at: …, updated_at: … }
 */
export class ResourceStore {
  readonly #collections: GeneralCollections
  readonly #byId: RecordIndex<ResourceRecord>

  constructor(collections: GeneralCollections) {
    this.#collections = collections
    this.#byId = new RecordIndex<ResourceRecord>(collections.resources, (record) => String(record.id))
  }

  get(id: number): ResourceRecord | undefined {
    return this.#byId.get(String(id))
  }

  /** The first stored resource, if any: what the OpenAPI examples read and update. */
  first(): ResourceRecord | undefined {
    return this.#collections.resources.all()[0]
  }

  /**
   * Replaces the data of resource `id` (already checked by `resourceData`) and
   * stamps `updated_at`. `data.id` may repeat the id but not change it (400);
   * `data.created_at` and `data.updated_at` are the simulator's and ignored.
   * Unknown id: `undefined`.
   */
  async replace(id: number, data: Record<string, unknown>, now: string): Promise<ResourceRecord | undefined> {
    const current = this.get(id)
    if (!current) return undefined
    if (Object.hasOwn(data, 'id') && data.id !== id) {
      throw validationFailed([{ path: 'data.id', message: `is immutable; omit it or give ${id}` }])
    }
    const own: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(data)) if (!RESERVED_KEYS.includes(key)) own[key] = value
    // A deep copy: the stored data shares nothing with the request's objects.
    const next = await this.#collections.resources.update(current as never, {
      data(draft) {
        draft.data = structuredClone(own)
        draft.updated_at = now
      },
    })
    if (next) this.#byId.refresh(next)
    return next
  }
}

/**
 * A resource as the API shows it (D19): `id`, then its data, then the
 * simulator's `created_at` and `updated_at`.
 *
 * @example
 * toResource({ id: 1, data: { title: 'A' }, created_at: t, updated_at: t }) // { id: 1, title: 'A', created_at: t, updated_at: t }
 */
export function toResource(record: ResourceRecord): Record<string, unknown> {
  return { id: record.id, ...record.data, created_at: record.created_at, updated_at: record.updated_at }
}
