// @ts-check
// What Linux's /proc and the OS say about a server process and the machine: CPU time, resident memory, load average.

import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import os from 'node:os'

/** Clock ticks per second of /proc times (usually 100). */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100

/**
 * User + system CPU seconds of a process and all its threads; undefined where /proc has none.
 *
 * @param {number | undefined} pid
 * @returns {number | undefined}
 */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}

/**
 * Resident set size of a process in KiB; NaN where /proc has none.
 *
 * @param {number | undefined} pid
 */
export function rssKiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
  } catch {
    return NaN
  }
}

/**
 * Resident set size of a process in MB (KiB / 1024, rounded).
 *
 * @param {number | undefined} pid
 */
export function rssMb(pid) {
  return Math.round(rssKiB(pid) / 1024)
}

/**
 * The 1, 5 and 15 minute load averages, two decimals each: anything else running skews req/s.
 *
 * @param {string} [separator]
 */
export function loadAverage(separator = ' ') {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(separator)
}
