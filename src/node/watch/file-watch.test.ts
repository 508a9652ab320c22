import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { FileWatch } from './file-watch.js'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('FileWatch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mam-file-watch-'))
  const file = join(dir, 'team.json')
  const watches: FileWatch[] = []
  const watch = (onChange: () => Promise<void>) => {
    const watched = new FileWatch(file, onChange, { settleMs: 50 })
    watches.push(watched)
    return watched
  }
  afterEach(async () => {
    await Promise.all(watches.splice(0).map((watched) => watched.close()))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('runs once for a save that took several writes, and once for a replace by rename', async () => {
    writeFileSync(file, '{}')
    let runs = 0
    watch(async () => void runs++)
    writeFileSync(file, '')
    writeFileSync(file, '{"a":1}')
    await pause(300)
    expect(runs).toBe(1)
    writeFileSync(join(dir, 'team.json.tmp'), '{"a":2}')
    renameSync(join(dir, 'team.json.tmp'), file)
    await pause(300)
    expect(runs).toBe(2)
  })

  it('hears nothing of the other files of the folder', async () => {
    let runs = 0
    watch(async () => void runs++)
    writeFileSync(join(dir, 'other.json'), '{}')
    await pause(300)
    expect(runs).toBe(0)
  })

  it('never overlaps runs, and hears nothing once closed', async () => {
    let running = 0
    let most = 0
    let runs = 0
    const watched = watch(async () => {
      runs++
      most = Math.max(most, ++running)
      await pause(150)
      running--
    })
    writeFileSync(file, '{"b":1}')
    await pause(80)
    writeFileSync(file, '{"b":2}')
    await pause(500)
    expect(runs).toBe(2)
    expect(most).toBe(1)
    await watched.close()
    writeFileSync(file, '{"b":3}')
    await pause(200)
    expect(runs).toBe(2)
  })
})
