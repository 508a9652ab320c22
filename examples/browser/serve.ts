/**
 * `npm run example`: builds the example and serves it until Ctrl-C, so a
 * person can open it in a browser and look (the devtools console shows one
 * collapsed group per answered request).
 */
import { join } from 'node:path'
import { buildExample } from './build.js'
import { serveStatic } from './static-server.js'

const outDir = join(process.cwd(), 'test-output', 'browser', 'site')
await buildExample(outDir, join(process.cwd(), 'examples', 'browser'))
const site = await serveStatic(outDir)
console.log(`multi-area-mock browser example on ${site.url}/  (try ?persist=off, ?scenario=/scenarios/team.json)`)
process.once('SIGINT', () => void site.close().then(() => process.exit(0)))
