/**
 * A page for test/browser.test.ts that starts nothing by itself: it puts
 * `startBrowserSimulator` on `globalThis.probe`, so a test can start the
 * simulator with its own options and watch what happens meanwhile.
 */
import { startBrowserSimulator } from 'multi-area-mock/browser'

;(globalThis as { probe?: { start: typeof startBrowserSimulator } }).probe = { start: startBrowserSimulator }
document.body.dataset.probe = 'ready'
