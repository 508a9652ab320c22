import { beforeAll, beforeEach } from 'vitest'
import { OpenApiCheck } from './openapi-check.js'

/** Small fetch helpers shared by the contract suites (in-process and over HTTP). */

export interface Reply<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

/**
 * Sends a request and reads the whole reply; the body is parsed when it is JSON.
 * Every reply is held against the OpenAPI document served at the same origin
 * (`/__mock/openapi.json`, fetched once per origin): a status, header or body
 * the document does not describe fails the test with what differs.
 */
export async function call<T = any>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<Reply<T>> {
  const { json, ...rest } = init
  const headers = new Headers(rest.headers)
  if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json')
  const response = await fetch(url, {
    ...rest,
    headers,
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    signal: rest.signal ?? AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  let body: any = text
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text)
  const reply = { status: response.status, headers: response.headers, body, text }
  const problem = (await documentAt(new URL(url).origin)).problem(rest.method?.toUpperCase() ?? 'GET', url, reply)
  if (problem) throw new Error(problem)
  return reply
}

/** One document per origin for the whole test file: every suite's world has the same routes. */
const documents = new Map<string, Promise<OpenApiCheck>>()

function documentAt(origin: string): Promise<OpenApiCheck> {
  let check = documents.get(origin)
  if (!check) {
    check = fetch(`${origin}/__mock/openapi.json`, { signal: AbortSignal.timeout(10_000) }).then(async (response) => {
      if (!response.ok) throw new Error(`No OpenAPI document to check replies against: GET ${origin}/__mock/openapi.json answered ${response.status}.`)
      return new OpenApiCheck(await response.json())
    })
    documents.set(origin, check)
  }
  return check
}

/** Restores the seeded scenario through the control API (D26). */
export async function resetWorld(base: string): Promise<void> {
  const reply = await call(`${base}/__mock/reset`, { method: 'POST' })
  if (reply.status !== 200) throw new Error(`reset failed: ${reply.status} ${reply.text}`)
}

/**
 * Hooks every area suite starts with: the \`default\` scenario once, then a reset
 * before each test, so tests never see each other's writes.
 */
export function useDefaultWorld(base: () => string): void {
  beforeAll(() => loadScenario(base(), 'default'))
  beforeEach(() => resetWorld(base()))
}

/** Loads a scenario by name through the control API (D26). */
export async function loadScenario(base: string, name: string): Promise<void> {
  const reply = await call(`${base}/__mock/scenarios/${name}`, { method: 'POST' })
  if (reply.status !== 200) throw new Error(`loading ${name} failed: ${reply.status} ${reply.text}`)
}
