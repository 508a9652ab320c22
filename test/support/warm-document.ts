/**
 * Asks a server for its OpenAPI document once, with time to spare. `call`
 * checks every reply against that document, and the server builds it on the
 * first request (its examples are recorded on a scratch simulator), which on
 * a busy machine takes longer than a test's own timeout: a `beforeAll` pays
 * it instead of the first test.
 *
 * @example
 * beforeAll(async () => { server = await startCli(); await warmDocument(server.url) }, 60_000)
 */
export async function warmDocument(origin: string): Promise<void> {
  const response = await fetch(`${origin}/__mock/openapi.json`, { signal: AbortSignal.timeout(50_000) })
  if (!response.ok) throw new Error(`GET ${origin}/__mock/openapi.json answered ${response.status}.`)
  await response.arrayBuffer()
}
