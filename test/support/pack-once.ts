/**
 * vitest's global setup: `npm pack` of the built repository, once per run,
 * as a user packs it (its `prepack` and `postpack` run: the packed manifest
 * is cleaned of scripts, then the clone's own is restored). Every test that
 * installs the package takes this tarball (`packReport` in
 * test/docs/support/consumers.ts): one pack, so no two rewrite the clone's
 * package.json at once.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** What `npm pack --json` says of the tarball, and where it is. */
export interface PackedPackage {
  tarball: string
  size: number
  unpackedSize: number
  files: { path: string; size: number }[]
}

declare module 'vitest' {
  export interface ProvidedContext {
    packed: PackedPackage
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const into = mkdtempSync(join(tmpdir(), 'mam-packed-'))
  const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', into], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as (Omit<PackedPackage, 'tarball'> & { filename: string })[]
  project.provide('packed', { tarball: join(into, info!.filename), size: info!.size, unpackedSize: info!.unpackedSize, files: info!.files })
  return () => rmSync(into, { recursive: true, force: true })
}
