import { type Browser, chromium } from 'playwright-core'
import { requireBinary } from './system-binary.js'

/** Debian's Chromium (`apt-get install chromium`); never a downloaded browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * Flags that let Chromium run headless here as root, without reaching for the
 * network on its own (the machine has none: background requests would fail).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Fails the calling test with one line naming the package when Debian's Chromium is missing. */
export function requireChromium(): void {
  requireBinary(CHROMIUM_PATH, 'chromium')
}

/**
 * Launches headless Chromium through playwright-core, with a fresh profile.
 *
 * @example
 * const browser = await launchChromium()
 * const page = await browser.newPage()
 * await browser.close()
 */
export function launchChromium(): Promise<Browser> {
  requireChromium()
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 })
}
