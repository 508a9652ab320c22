/**
 * The packages npm installs along with a package, read from a node_modules
 * that npm laid out (this repository's): offline, with the versions of the
 * lockfile. Each name is looked up as Node and npm do, in the dependent's own
 * node_modules first, then in every parent's.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'

export interface Manifest {
  name: string
  version: string
  scripts?: Record<string, string>
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

export interface InstalledPackage {
  name: string
  dir: string
  manifest: Manifest
}

/** `package.json` of a folder. */
export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
}

/** What npm installs for a package: its dependencies, the optional ones it could install, and its required peers. */
export function installedNames(manifest: Manifest): string[] {
  const peers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => !manifest.peerDependenciesMeta?.[name]?.optional)
  return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {}), ...peers]
}

/**
 * Every package npm installs for `names` required from `fromDir`, and for
 * theirs in turn, each folder once, by folder.
 *
 * @example
 * const tree = packageTree(['zod'], process.cwd())
 */
export function packageTree(names: string[], fromDir: string): Map<string, InstalledPackage> {
  const found = new Map<string, InstalledPackage>()
  const queue = names.map((name) => ({ name, from: fromDir }))
  while (queue.length > 0) {
    const { name, from } = queue.shift()!
    const dir = locate(name, from)
    if (!dir) throw new Error(`package-tree: ${name} (needed from ${from}) is not installed`)
    if (found.has(dir)) continue
    const manifest = readManifest(dir)
    found.set(dir, { name, dir, manifest })
    for (const next of installedNames(manifest)) {
      // An optional dependency npm could not install (another platform's binary) is not there: skip it.
      if (manifest.optionalDependencies?.[next] && !locate(next, dir)) continue
      queue.push({ name: next, from: dir })
    }
  }
  return found
}

/** The folder `name` resolves to from `from`, as npm lays packages out. */
function locate(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    // Its real folder: a linked package (the doc tests' consumers) finds its own dependencies from there, as Node does.
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate)
    if (dirname(dir) === dir) return undefined
  }
}

/** Bytes of the files in `dir`, as `npm pack` counts a package's unpacked size: file sizes, nested node_modules left out (they are packages of their own). */
export function folderBytes(dir: string): number {
  let bytes = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.isSymbolicLink()) continue
    const path = join(dir, entry.name)
    bytes += entry.isDirectory() ? folderBytes(path) : lstatSync(path).size
  }
  return bytes
}
