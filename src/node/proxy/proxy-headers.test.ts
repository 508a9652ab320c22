import { describe, expect, it } from 'vitest'
import { upstreamRequestHeaders } from './proxy-headers.js'

describe('upstreamRequestHeaders', () => {
  it('drops Host and the hop-by-hop headers, keeps the rest', () => {
    const headers = upstreamRequestHeaders({ host: 'localhost:4000', connection: 'keep-alive, x-hop', 'x-hop': '1', authorization: 'Bearer app', accept: '*/*' })
    expect(headers).toEqual({ authorization: 'Bearer app', accept: '*/*' })
  })

  it('drops an Authorization that carries the control token: the upstream never sees it', () => {
    const isControlToken = (value: string | undefined) => value === 'Bearer ctl'
    expect(upstreamRequestHeaders({ authorization: 'Bearer ctl', accept: '*/*' }, isControlToken)).toEqual({ accept: '*/*' })
    expect(upstreamRequestHeaders({ authorization: 'Bearer app' }, isControlToken)).toEqual({ authorization: 'Bearer app' })
  })
})
