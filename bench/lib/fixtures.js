// @ts-check
// The answers a throughput run replays and compares: captured from the first simulator before any load, then checked byte for byte on every other server.

import { checkedRequests, DATA_PATH, DELEGATE_PATH, ENTANGLE_BODY, ENTANGLE_PATH, LIST_PATH, LOGIN_PATH, MEASURE_PATH, STATUS_PATH } from '../scenarios.js'
import { registration } from './bodies.js'

/** @typedef {import('../scenarios.js').Fixture} Fixture */

/**
 * One request; returns status, the headers worth replaying, and the body text. Throws on any other status than `expected`.
 *
 * @param {string} base
 * @param {string} method
 * @param {string} path
 * @param {number} expected
 * @param {string} [body]
 * @returns {Promise<Fixture>}
 */
export async function capture(base, method, path, expected, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
  })
  const text = await response.text()
  if (response.status !== expected) throw new Error(`${method} ${path} on ${base}: expected ${expected}, got ${response.status}: ${text.slice(0, 300)}`)
  /** @type {Record<string, string>} */
  const headers = {}
  for (const [name, value] of response.headers) {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) headers[name] = value
  }
  return { status: response.status, headers, body: text }
}

/**
 * Captures every row's answer from the simulator at `url` (the order matters: the capture grows its world).
 *
 * @param {string} url
 * @param {{ formatDelegation: () => string }} bodies
 * @returns {Promise<import('../scenarios.js').Fixtures>}
 */
export async function captureFixtures(url, bodies) {
  const listed = await capture(url, 'GET', LIST_PATH, 200)
  const users = JSON.parse(listed.body)
  if (!Array.isArray(users) || users.length === 0 || typeof users[0].id !== 'string') throw new Error(`GET ${LIST_PATH} returned no users: ${listed.body.slice(0, 200)}`)
  const detailPath = `${LIST_PATH}/${encodeURIComponent(users[0].id)}`
  const detail = await capture(url, 'GET', detailPath, 200)
  const created = await capture(url, 'POST', LIST_PATH, 201, registration('bench-capture'))
  // Area D: a seeded active user logs in (PBKDF2 check + HS256 signing), and one resource is read.
  const loginUser = users.find((user) => user.status === 'active')
  if (!loginUser) throw new Error(`GET ${LIST_PATH} returned no active user to log in with`)
  const loginBody = JSON.stringify({ username: loginUser.username, password: 'Passw0rd!' })
  const loggedIn = await capture(url, 'POST', LOGIN_PATH, 200, loginBody)
  const data = await capture(url, 'GET', DATA_PATH, 200)
  const entangled = await capture(url, 'POST', ENTANGLE_PATH, 201, ENTANGLE_BODY)
  // A seeded particle: every fresh server (same seed) has it, where a pair entangled
  // on this capture server would exist on this server only (measuring it elsewhere: 404).
  const state = /** @type {any} */ (await (await fetch(`${url}/__mock/state`)).json())
  const seededPair = state.quantum?.pairs?.[0]
  if (!seededPair) throw new Error('the default world has no entangled pair to measure')
  const measureBody = JSON.stringify({ particle_id: seededPair.particles[0].id, measurement_axis: 'x-axis' })
  const measured = await capture(url, 'POST', MEASURE_PATH, 200, measureBody)
  const status = await capture(url, 'GET', STATUS_PATH, 200)
  // Signatures in format mode only need a unique shape; a counter makes one per request.
  const captureDelegation = bodies.formatDelegation()
  const delegated = await capture(url, 'POST', DELEGATE_PATH, 202, captureDelegation)
  const usersSeeded = Number(listed.headers['x-total-count'])
  return { listed, detail, detailPath, created, loginBody, loggedIn, data, entangled, measureBody, measured, status, captureDelegation, delegated, usersSeeded }
}

/**
 * Throws unless the server at `url` answers every checked request with the captured body.
 *
 * @param {string} label
 * @param {string} url
 * @param {ReturnType<typeof checkedRequests>} requests
 * @param {string} reference whose bytes the message says it differs from
 */
export async function assertSameBytes(label, url, requests, reference) {
  for (const [method, path, fixture, body] of requests) {
    const got = await capture(url, method, path, fixture.status, body)
    if (got.body !== fixture.body) throw new Error(`${label}: ${method} ${path} body differs from ${reference}`)
  }
}
