import { DEFAULT_WORLD } from '../api.js'
import { counted } from '../format.js'

/** What `{control}/ui/server.json` says of the server (`src/node/pages/inspector-page.ts`). */
export interface ServerInfo {
  /** Absolute path of `--state-file`, or `null`. */
  stateFile: string | null
  controlToken: boolean
  /** The Redis store replicas share (`--store`), without its password, or `null`. */
  store: string | null
  /** The bundle the world was rebuilt from (`--replay`), or `null`. */
  replayed: { file: string; commands: number; applied: number; until: number | null } | null
}

/** Where a world is kept: a few words for the header (`title`: the whole path or URL), a sentence for the World panel. */
export interface Storage {
  label: string
  title?: string
  note: string
}

/**
 * Where the world shown is kept, in the words of the server's own options, and
 * what would keep it: only what the running server accepts (`--store` and
 * `--replay` refuse `--state-file`, so neither is told to add it).
 *
 * @example
 * storageOf({ stateFile: null, controlToken: false, store: 'redis://127.0.0.1:6379', replayed: null }, 'default').label
 * // 'Shared through Redis (replica)'
 */
export function storageOf(info: ServerInfo, world: string): Storage {
  const isolated = world !== DEFAULT_WORLD
  const { store, stateFile, replayed } = info
  // The store keeps every world, isolated ones included; a state file and a replay, the default world only.
  if (store) {
    return {
      label: 'Shared through Redis (replica)',
      title: store,
      note: isolated
        ? `Every replica shares this isolated world through Redis (${store}) until it is deleted or expires.`
        : `Every replica shares this world through Redis (${store}); it outlives any one of them.`,
    }
  }
  if (isolated) return { label: 'In memory', note: 'An isolated world lives in memory until it is deleted or expires.' }
  if (stateFile) return { label: `Kept in ${stateFile}`, title: stateFile, note: `This world is kept in ${stateFile} (saved after each change).` }
  if (replayed) {
    const name = replayed.file.split(/[\\/]/).pop() ?? replayed.file
    const applied =
      replayed.until === null ? counted(replayed.commands, 'command') : `${replayed.applied} of ${counted(replayed.commands, 'command')}, stopped before command ${replayed.until}`
    return {
      label: `Replayed from ${name}`,
      title: replayed.file,
      note: `Rebuilt from ${name} (${applied}); what changed since lives in memory only: Download bundle saves it all for another serve --replay.`,
    }
  }
  return { label: 'In memory', note: 'This world lives in memory; start the server with --state-file to keep it.' }
}
