import { describe, expect, it } from 'vitest'
import { DocsPage } from './docs-page.js'

const text = (body: string | Uint8Array | null) => (typeof body === 'string' ? body : new TextDecoder().decode(body ?? new Uint8Array()))

describe('DocsPage without swagger-ui-dist', () => {
  const docs = new DocsPage('/__mock', { swaggerUi: null })

  it('serves the plain page: the document link, the command for the interactive page, its own script and style under a strict policy', async () => {
    const page = await docs.answer({ method: 'GET', path: '/__mock/docs' })
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'")
    const html = text(page.body)
    expect(html).toContain('<a href="/__mock/openapi.json">/__mock/openapi.json</a>')
    expect(html).toContain('<code>npm i -D swagger-ui-dist</code>')
    expect(html).toContain('<script src="/__mock/docs/operations.js" defer></script>')
    expect(html).not.toMatch(/<script>|<style>| on[a-z]+=/)

    const script = await docs.answer({ method: 'GET', path: '/__mock/docs/operations.js' })
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(text(script.body)).toContain('"/__mock/openapi.json"')
    // The function travels as its own source: it must parse on its own.
    expect(() => new Function(text(script.body))).not.toThrow()
    const style = await docs.answer({ method: 'GET', path: '/__mock/docs/operations.css' })
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8')
  })

  it("answers Swagger UI's files with a 404 that says how to get them", async () => {
    const missing = await docs.answer({ method: 'GET', path: '/__mock/docs/swagger-ui-bundle.js' })
    expect(missing.status).toBe(404)
    expect(JSON.parse(text(missing.body))).toMatchObject({ error: 'not_found', message: expect.stringContaining('npm i -D swagger-ui-dist') })
  })
})

describe('DocsPage with swagger-ui-dist (a devDependency here)', () => {
  const docs = new DocsPage('/__mock')

  it('serves Swagger UI with its files from the package and our start file, without inline script', async () => {
    const page = await docs.answer({ method: 'GET', path: '/__mock/docs' })
    expect(page.headers['content-security-policy']).toContain("script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'")
    const html = text(page.body)
    expect(html).toContain('<script src="/__mock/docs/swagger-ui-bundle.js"></script>')
    expect(html).not.toMatch(/<script>/)
    const init = await docs.answer({ method: 'GET', path: '/__mock/docs/swagger-init.js' })
    expect(text(init.body)).toContain('url: "/__mock/openapi.json"')
    const bundle = await docs.answer({ method: 'GET', path: '/__mock/docs/swagger-ui-bundle.js' })
    expect(bundle.status).toBe(200)
    expect(bundle.headers['cache-control']).toBe('public, max-age=3600')
    expect((bundle.body as Uint8Array).byteLength).toBeGreaterThan(100_000)
  })

  it('serves nothing else of the package or the disk, and only GET and HEAD', async () => {
    for (const path of ['/__mock/docs/package.json', '/__mock/docs/__proto__', '/__mock/docs/../package.json']) {
      expect((await docs.answer({ method: 'GET', path })).status, path).toBe(404)
    }
    const post = await docs.answer({ method: 'POST', path: '/__mock/docs' })
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET')
    expect((await docs.answer({ method: 'HEAD', path: '/__mock/docs' })).status).toBe(200)
  })
})
