// @ts-check
// One temporary folder per bench process for wrk scripts, signed bodies and scenario files, removed when the process exits.

import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'

/** @type {string | undefined} */
let folder
/** File names handed out so far: paired runs write theirs at the same time, so each gets its own. */
let count = 0

/**
 * A fresh path in the folder (created on first use): `${count}-${name}`.
 *
 * @example
 * writeFileSync(scratchPath('list.lua'), script)
 * @param {string} name
 */
export function scratchPath(name) {
  if (!folder) {
    const made = mkdtempSync(join(os.tmpdir(), 'multi-area-mock-bench-'))
    folder = made
    process.on('exit', () => rmSync(made, { recursive: true, force: true }))
  }
  return join(folder, `${++count}-${name}`)
}
