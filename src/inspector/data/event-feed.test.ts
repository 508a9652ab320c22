import { expect, it } from 'vitest'
import { EventParser } from './event-feed.js'

it('parses Server-Sent Events split anywhere, skipping comments and keeping retry', () => {
  const parser = new EventParser()
  const text = 'retry: 1000\nevent: hello\ndata: {"world":"default"}\n\n: ping\n\nevent: request\r\ndata: {"id":1}\r\n\r\ndata: a\ndata: b\n\n'
  const events = []
  for (let i = 0; i < text.length; i += 7) events.push(...parser.push(text.slice(i, i + 7)))
  expect(events).toEqual([
    { event: 'hello', data: '{"world":"default"}' },
    { event: 'request', data: '{"id":1}' },
    { event: 'message', data: 'a\nb' },
  ])
  expect(parser.retry).toBe(1000)
})
