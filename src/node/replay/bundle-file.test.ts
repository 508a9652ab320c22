import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { takeBundle } from '../../simulator/history/bundle-take.js'
import { createSimulator } from '../../simulator/create-simulator.js'
import { engineOf } from '../../simulator/engine.js'
import type { WorldBundle } from '../../simulator/history/world-bundle.js'
import { readBundleFile } from './bundle-file.js'

describe('reading a bundle file', () => {
  let dir: string
  let bundle: WorldBundle
  const write = async (name: string, content: unknown) => {
    const file = join(dir, name)
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content))
    return file
  }
  /** The one line a read refuses the file with. */
  const refusal = async (file: string, limit?: number) => {
    const error = await readBundleFile(file, limit).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    )
    expect(error?.name).toBe('ConfigError')
    expect(error!.message.split('\n')).toHaveLength(1)
    return error!.message
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bundle-file-'))
    const sim = createSimulator({ seed: 4, clock: '2026-01-01T00:00:00Z' })
    await sim.ready
    const response = await sim.fetch(
      new Request('http://sim.test/core/products/prod-1001', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"price":7}' }),
    )!
    expect(response.status).toBe(200)
    bundle = await takeBundle(engineOf(sim))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('gives the bundle a GET /__mock/bundle answer saved to a file holds', async () => {
    const read = await readBundleFile(await write('good.json', bundle))
    expect(read).toEqual(bundle)
    expect(read.commands).toHaveLength(1)
  })

  it('refuses a missing file or a directory, naming the file', async () => {
    expect(await refusal(join(dir, 'nowhere.json'))).toBe(`Cannot read bundle file ${join(dir, 'nowhere.json')}: no such file.`)
    await mkdir(join(dir, 'folder.json'))
    expect(await refusal(join(dir, 'folder.json'))).toBe(`Cannot read bundle file ${join(dir, 'folder.json')}: it is a directory.`)
  })

  it('refuses a file past the limit before reading it', async () => {
    const file = await write('big.json', bundle)
    expect(await refusal(file, 1024)).toMatch(new RegExp(`^Bundle file ${file} is too large \\(\\d+ bytes\\): at most 1kb is read\\.$`))
  })

  it('refuses text that is not JSON, JSON that is not a bundle, and another format', async () => {
    const broken = await write('broken.json', '{"format": 1,')
    expect(await refusal(broken)).toMatch(new RegExp(`^Bundle file ${broken} is not valid JSON: .+\\.$`))
    const state = await write('state.json', { core: { products: [] } })
    expect(await refusal(state)).toBe(`Bundle file ${state} is not a multi-area-mock world bundle (take one with GET /__mock/bundle).`)
    const later = await write('later.json', { ...bundle, format: 2 })
    expect(await refusal(later)).toBe(`Bundle file ${later} has format 2; this version reads format 1.`)
  })

  it('lists where a damaged bundle is wrong, on one line', async () => {
    const damaged = { ...bundle, state: { ...bundle.state, sha256: 'not hex' }, commands: [{ ...bundle.commands[0], at: 'soon' }] }
    const file = await write('damaged.json', damaged)
    const message = await refusal(file)
    expect(message.startsWith(`Invalid bundle file ${file}: `)).toBe(true)
    expect(message).toContain('state.sha256: ')
    expect(message).toContain('commands.0.at: ')
  })
})
