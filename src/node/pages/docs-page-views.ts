/**
 * The two versions of `GET {control}/docs`: Swagger UI when `swagger-ui-dist`
 * is installed, else a plain list of the operations with the way to the
 * interactive page. Every script and style is a file of this server, so the
 * pages run under a Content-Security-Policy without inline code.
 */

/** The plain page: its own script and style only, talking to this server only. */
export const PLAIN_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * Swagger UI: its bundle and our start file; styles also inline (it sets `style`
 * attributes); `connect-src 'self'` for the document and "Try it out", which
 * calls this server. No form posts, no frames, nothing from elsewhere.
 */
export const SWAGGER_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** What to run for the interactive page, as users type it. */
export const SWAGGER_INSTALL = 'npm i -D swagger-ui-dist'

/** `{prefix}/swagger-init.js`: starts Swagger UI on the document at `documentUrl`. */
export function swaggerInit(documentUrl: string): string {
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentUrl)},
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  // Nothing leaves this machine: no online validator badge.
  validatorUrl: null,
})
`
}

/** The start of both pages, up to `</head>`: `assets` are the page's own stylesheet and script tags. */
function pageHead(assets: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>multi-area-mock API reference</title>
<link rel="icon" href="data:,">
${assets}
</head>`
}

/** Swagger UI's page; its files are under `prefix`. */
export function swaggerPage(prefix: string): string {
  return `${pageHead(`<link rel="stylesheet" href="${prefix}/swagger-ui.css">`)}
<body>
<div id="swagger-ui"></div>
<script src="${prefix}/swagger-ui-bundle.js"></script>
<script src="${prefix}/swagger-init.js"></script>
</body>
</html>
`
}

/** The page without Swagger UI: the document's link, how to get the interactive page, and the operations (listed by `{prefix}/operations.js`). */
export function plainPage(prefix: string, documentUrl: string): string {
  return `${pageHead(`<link rel="stylesheet" href="${prefix}/operations.css">
<script src="${prefix}/operations.js" defer></script>`)}
<body>
<main>
<h1>multi-area-mock API reference</h1>
<p>The OpenAPI 3.1 document of this server: <a href="${documentUrl}">${documentUrl}</a>. Give it to your client generator, linter or mock tool.</p>
<aside>
<p><strong>The interactive page</strong> (Swagger UI, with "Try it out") needs the optional package
<code>swagger-ui-dist</code>, which is not installed here. In your project, run
<code>${SWAGGER_INSTALL}</code>, then reload this page. It is served from your disk; nothing is fetched from the internet.</p>
<p>swagger-ui-dist brings <code>@scarf/scarf</code>, whose install script reports the download;
<code>SCARF_ANALYTICS=false ${SWAGGER_INSTALL}</code> turns that off.</p>
</aside>
<div id="operations"><p data-status>Loading the operations…</p><noscript><p>The list needs JavaScript; the document above holds every operation.</p></noscript></div>
</main>
</body>
</html>
`
}

/** `{prefix}/operations.css`. */
export const PLAIN_PAGE_STYLE = `body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1b1b1f; background: #fff; }
main { max-width: 68rem; margin: 0 auto; padding: 1.5rem; }
aside { border-left: 4px solid #5b6cf0; background: #f3f4fe; padding: 0.25rem 1rem; margin: 1rem 0 2rem; }
code { font: 13px/1.4 ui-monospace, monospace; }
table { border-collapse: collapse; width: 100%; margin-bottom: 1.5rem; }
th, td { text-align: left; padding: 0.3rem 0.6rem; border-bottom: 1px solid #e3e3e8; vertical-align: top; }
td.method { font: 600 12px/1.9 ui-monospace, monospace; width: 5rem; }
td.get { color: #0b6e4f; } td.post { color: #8a4b00; } td.put, td.patch { color: #1f4fb0; } td.delete { color: #b3261e; }
`
