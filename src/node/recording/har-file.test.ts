import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../simulator/create-simulator.js'
import { engineOf } from '../../simulator/engine.js'
import { recorderFor } from '../../simulator/recording/recorder-setup.js'
import { type HarEntry, harAnswer, harBases, MAX_HAR_BYTES, parseHar, parseHarBase, readHarFile, simulatorUrl } from './har-file.js'

const CLOCK = '2026-01-01T00:00:00Z'

/** A HAR 1.2 document around some entries, as an exporter writes it (fields not read included). */
function har(entries: unknown[]): string {
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, pages: [], entries } })
}

function entry(url: string, response: Record<string, unknown>, request: Record<string, unknown> = {}): unknown {
  return {
    startedDateTime: CLOCK,
    time: 3,
    request: { method: 'GET', url, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0, ...request },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], redirectURL: '', headersSize: -1, bodySize: -1, ...response },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

function only(text: string): HarEntry {
  return parseHar(text, 'HAR file x.har').log.entries[0]!
}

describe('reading a HAR file', () => {
  it('gives each entry as an answer: method, URL, request text, status and response text', () => {
    const body = '{"username":"ada","email":"ada@example.com"}'
    const parsed = only(
      har([
        entry(
          'http://localhost:4000/admin/api/v1.2/users',
          { status: 201, content: { size: 10, mimeType: 'application/json', text: '{"id":"u1"}' } },
          { method: 'post', postData: { mimeType: 'application/json', text: body } },
        ),
      ]),
    )
    expect(harAnswer(parsed, 'http://localhost:4000/admin/api/v1.2/users')).toEqual({
      method: 'POST',
      url: 'http://localhost:4000/admin/api/v1.2/users',
      status: 201,
      requestText: body,
      responseText: '{"id":"u1"}',
    })
  })

  it('decodes base64 content, multi-byte characters included', () => {
    const text = '[{"name":"Zoë\'s café ☕"}]'
    const parsed = only(
      har([entry('https://x.test/core/products/p1', { content: { size: 30, mimeType: 'application/json', text: Buffer.from(text).toString('base64'), encoding: 'base64' } })]),
    )
    expect(harAnswer(parsed, 'https://x.test/core/products/p1').responseText).toBe(text)
  })

  it('keeps an entry without body texts (devtools leaves some out) as an answer without a body', () => {
    const parsed = only(har([entry('https://x.test/core/products/p1', { status: 404, content: { size: 0, mimeType: 'x-unknown' } }, { postData: null })]))
    expect(harAnswer(parsed, 'https://x.test/core/products/p1')).toEqual({
      method: 'GET',
      url: 'https://x.test/core/products/p1',
      status: 404,
      requestText: undefined,
      responseText: undefined,
    })
  })

  it('refuses what is not a HAR 1.2 document with one line naming the file and the problem', () => {
    const cases: Array<[string, RegExp]> = [
      ['<html>not json</html>', /^HAR file x\.har is not JSON \(.+\); expected a HAR 1\.2 export\.$/],
      ['{"description":"a scenario","seed":1}', /^HAR file x\.har is not a HAR 1\.2 document \(log: .*expected object.*\)\.$/],
      [JSON.stringify({ log: { version: '1.0', entries: [] } }), /^HAR file x\.har is not a HAR 1\.2 document \(log\.version: expected "1\.2"\)\.$/],
      [
        har([entry('https://x.test/', {}), { request: { method: 'GET' }, response: { status: 200 } }]),
        /^HAR file x\.har is not a HAR 1\.2 document \(log\.entries\[1\]\.request\.url: .*expected string.*\)\.$/,
      ],
      ['[1,2]', /^HAR file x\.har is not a HAR 1\.2 document \(.*expected object.*\)\.$/],
    ]
    for (const [text, message] of cases) {
      expect(() => parseHar(text, 'HAR file x.har')).toThrow(message)
      expect(() => parseHar(text, 'HAR file x.har')).not.toThrow(/\n/)
    }
  })

  it('accepts a byte order mark and HAR 1.1', () => {
    expect(parseHar(`\ufeff${JSON.stringify({ log: { version: '1.1', entries: [] } })}`, 'x').log.entries).toEqual([])
  })

  describe('from disk', () => {
    let dir: string
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'har-file-'))
    })
    afterAll(() => rm(dir, { recursive: true, force: true }))

    it('reads a file', async () => {
      const path = join(dir, 'ok.har')
      await writeFile(path, har([entry('https://x.test/quantum/v1/status', { content: { size: 2, mimeType: 'application/json', text: '{}' } })]))
      expect((await readHarFile(path)).log.entries).toHaveLength(1)
    })

    it('says in one line that a file is missing or a directory', async () => {
      await expect(readHarFile(join(dir, 'missing.har'))).rejects.toThrow(`Cannot read HAR file ${join(dir, 'missing.har')}: no such file.`)
      await expect(readHarFile(dir)).rejects.toThrow(`Cannot read HAR file ${dir}: it is a directory.`)
    })

    it(`refuses a file over ${MAX_HAR_BYTES / 1024 / 1024} MiB without reading it`, async () => {
      const path = join(dir, 'huge.har')
      await writeFile(path, '')
      // Sparse: the size is there, the disk space is not.
      await truncate(path, MAX_HAR_BYTES + 1)
      await expect(readHarFile(path)).rejects.toThrow(/^HAR file .*huge\.har is 256\.0 MiB, over the 256 MiB limit/)
    })
  })
})

describe('--base', () => {
  it('takes a mount point, or an area (id or letter) and its backend; a trailing slash is dropped', () => {
    expect(parseHarBase('https://staging.example.com/backend/')).toEqual({ url: new URL('https://staging.example.com/backend') })
    expect(parseHarBase('admin=https://users.example.com/api')).toEqual({ area: 'admin', url: new URL('https://users.example.com/api') })
    expect(parseHarBase('e=http://127.0.0.1:8545')).toEqual({ area: 'ledger', url: new URL('http://127.0.0.1:8545') })
    // An '=' in a URL's path is not an area.
    expect(parseHarBase('https://x.test/a=b')).toEqual({ url: new URL('https://x.test/a=b') })
  })

  it('refuses an unknown area, a URL that is not absolute http(s), a query, and one URL given twice', () => {
    expect(() => parseHarBase('payments=https://x.test')).toThrow(/^unknown area "payments" in --base: expected one of admin, core/)
    expect(() => parseHarBase('staging.example.com/backend')).toThrow(/is not <url> or <area>=<url>/)
    expect(() => parseHarBase('admin=ftp://x.test')).toThrow(/expected an http\(s\) URL without query/)
    expect(() => parseHarBase('https://x.test/api?v=2')).toThrow(/expected an http\(s\) URL without query/)
    expect(() => harBases(['admin=https://x.test/api', 'core=https://x.test/api/'])).toThrow('--base https://x.test/api is given twice (area admin and area core)')
  })

  it('places entries at the simulator: a mount point removed, an area backend replaced by its prefix, other URLs as they are', () => {
    const bases = harBases([
      'https://staging.example.com/backend',
      'admin=https://users.example.com/api',
      'ledger=http://127.0.0.1:8545',
      'quantum=https://staging.example.com/backend/lab',
    ])
    expect(simulatorUrl('https://staging.example.com/backend/admin/api/v1.2/users?limit=5', bases)).toBe('https://staging.example.com/admin/api/v1.2/users?limit=5')
    expect(simulatorUrl('https://users.example.com/api/api/v1.2/users/u1', bases)).toBe('https://users.example.com/admin/api/v1.2/users/u1')
    expect(simulatorUrl('http://127.0.0.1:8545/tokens', bases)).toBe('http://127.0.0.1:8545/ledger/tokens')
    // The longest base holding the URL wins.
    expect(simulatorUrl('https://staging.example.com/backend/lab/v1/status', bases)).toBe('https://staging.example.com/quantum/v1/status')
    // Whole segments only; other hosts by path.
    expect(simulatorUrl('https://staging.example.com/backend2/core/products/p1', bases)).toBe('https://staging.example.com/backend2/core/products/p1')
    expect(simulatorUrl('https://cdn.example.com/core/products/p1', bases)).toBe('https://cdn.example.com/core/products/p1')
    expect(simulatorUrl('https://users.example.com/apiary', bases)).toBe('https://users.example.com/apiary')
    expect(simulatorUrl('data:image/png;base64,AAAA', bases)).toBeUndefined()
    expect(simulatorUrl('not a url', bases)).toBeUndefined()
  })
})

describe('a HAR file into a scenario', () => {
  it("replays a real backend's users list byte for byte, recorded under an area's own --base", async () => {
    const backend = createSimulator({ seed: 7, clock: CLOCK })
    const listed = (await backend.fetch(new Request('http://backend.test/admin/api/v1.2/users?limit=100')))!
    const text = await listed.text()
    const document = parseHar(
      har([
        entry('https://users.example.com/api/api/v1.2/users?limit=100', {
          content: { size: text.length, mimeType: 'application/json', text: Buffer.from(text).toString('base64'), encoding: 'base64' },
        }),
        entry('https://users.example.com/app/index.html', { content: { size: 5, mimeType: 'text/html', text: '<p>hi' } }),
      ]),
      'HAR file x.har',
    )
    const bases = harBases(['admin=https://users.example.com/api'])
    const table = createSimulator({ scenario: 'empty' })
    await table.ready
    const recorder = recorderFor({ dispatcher: engineOf(table).dispatcher, areas: ['admin'], seed: 99, description: 'Recorded from x.har' })
    const taken = document.log.entries.map((each) => recorder.record(harAnswer(each, simulatorUrl(each.request.url, bases)!)))
    expect(taken).toEqual([true, false])

    const replay = createSimulator({ scenario: recorder.scenario(), clock: CLOCK })
    const replayed = (await replay.fetch(new Request('http://replay.test/admin/api/v1.2/users?limit=100')))!
    expect(replayed.status).toBe(200)
    expect(replayed.headers.get('x-total-count')).toBe(listed.headers.get('x-total-count'))
    expect(await replayed.text()).toBe(text)
  })
})
