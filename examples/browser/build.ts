import { cp, mkdir, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** This folder; passed explicitly where the module is bundled and `import.meta.url` is elsewhere. */
const HERE = dirname(fileURLToPath(import.meta.url))

/**
 * Builds the example into `outDir`: `public/` as is, `app.js` bundled by
 * esbuild from `app.ts` (importing `multi-area-mock/browser` from the built
 * package, `npm run build` first) with its chunks (the simulator is one,
 * loaded while msw's worker starts), and msw's `mockServiceWorker.js` copied
 * from the installed msw, so the worker script and the library always match.
 *
 * @example
 * await buildExample('test-output/browser/site')
 */
export async function buildExample(outDir: string, sourceDir = HERE): Promise<void> {
  await rm(outDir, { recursive: true, force: true })
  await mkdir(outDir, { recursive: true })
  await cp(join(sourceDir, 'public'), outDir, { recursive: true })
  const require = createRequire(join(sourceDir, 'build.ts'))
  const mswRoot = dirname(require.resolve('msw/package.json'))
  await cp(join(mswRoot, 'lib', 'mockServiceWorker.js'), join(outDir, 'mockServiceWorker.js'))
  await build({
    entryPoints: [join(sourceDir, 'app.ts')],
    outdir: outDir,
    entryNames: 'app',
    // As an app's bundler does: the simulator, loaded with a dynamic import(), is a chunk of its own.
    splitting: true,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  })
}
