import { describe, expect, it } from 'vitest'
import { CorsPolicy, corsOriginProblem } from './cors.js'

describe('CorsPolicy', () => {
  const defaults = new CorsPolicy()

  it("allows loopback origins on any port and the server's own, echoed with credentials", () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://127.8.9.1', 'http://[::1]:8080', 'https://localhost']) {
      expect(defaults.allows(origin, '127.0.0.1:4000'), origin).toBe(true)
      expect(defaults.headersFor(origin, '127.0.0.1:4000')).toMatchObject({ 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' })
    }
    expect(defaults.allows('http://box.lan:4000', 'box.lan:4000')).toBe(true)
  })

  it('refuses other origins, look-alikes and non-http schemes', () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null', 'file://', 'garbage', 'http://127.0.0.1:3000/path', 'chrome-extension://abc']) {
      expect(defaults.allows(origin, '127.0.0.1:4000'), origin).toBe(false)
      expect(defaults.headersFor(origin, '127.0.0.1:4000'), origin).toEqual({})
    }
  })

  it('no Origin, no CORS headers', () => {
    expect(defaults.headersFor(null, '127.0.0.1:4000')).toEqual({})
  })

  it('listed origins are compared as browsers send them', () => {
    const cors = new CorsPolicy(['HTTPS://App.Example.com:443', 'null'])
    expect(cors.allows('https://app.example.com', undefined)).toBe(true)
    expect(cors.allows('null', undefined)).toBe(true)
    expect(cors.allows('http://app.example.com', undefined)).toBe(false)
  })

  it('"*" lets every origin read without credentials; trusted origins keep theirs', () => {
    const cors = new CorsPolicy(['*'])
    expect(cors.allows('https://evil.example', undefined)).toBe(true)
    expect(cors.headersFor('https://evil.example', undefined)).toEqual(expect.objectContaining({ 'access-control-allow-origin': '*' }))
    expect(cors.headersFor('https://evil.example', undefined)['access-control-allow-credentials']).toBeUndefined()
    expect(cors.headersFor('http://localhost:5173', undefined)['access-control-allow-credentials']).toBe('true')
  })

  it('checks --cors-origin values', () => {
    for (const good of ['https://app.example.com', 'http://localhost:8080', 'null', '*']) expect(corsOriginProblem(good), good).toBeUndefined()
    for (const bad of ['app.example.com', 'https://app.example.com/', 'https://app.example.com/x', 'ftp://x.example', 'https://u:p@x.example'])
      expect(corsOriginProblem(bad), bad).toBeDefined()
  })
})
