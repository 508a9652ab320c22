import type { TestInfo } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startServer, type RunningServer } from '../node/server/server.js'
import { worldBundleSchema } from '../simulator/history/world-bundle.js'
import { createMockWorld, type MockWorld } from '../testing/mock-world.js'
import { type AttachWorldMode, attachWorld } from './attach-world.js'

const TOKEN = 'the-control-token'

/** What the fixture hands over: a test's outcome, and where its attachments and annotations go. */
function testInfoOf(status: TestInfo['status'], expectedStatus: TestInfo['expectedStatus'] = 'passed') {
  const attachments: Array<{ name: string; contentType: string; body: string }> = []
  const info = {
    status,
    expectedStatus,
    annotations: [] as TestInfo['annotations'],
    attach: async (name: string, options: { body: string; contentType: string }) => void attachments.push({ name, ...options }),
  }
  return { info, testInfo: info as unknown as TestInfo, attachments }
}

describe('attachWorld: the bundle of a test world in its Playwright report', () => {
  let server: RunningServer
  let world: MockWorld
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 2, clock: '2026-01-01T00:00:00Z', controlToken: TOKEN })
    world = await createMockWorld(server.url, { scenario: 'empty', controlToken: TOKEN })
    expect((await world.fetch('/core/users', { method: 'POST', body: JSON.stringify({ username: 'ada', email: 'ada@example.com', password: 'secret-password' }) })).status).toBe(
      201,
    )
  })
  afterAll(() => server.close())

  it.each<[AttachWorldMode, TestInfo['status'], TestInfo['expectedStatus'], number]>([
    ['on-failure', 'failed', 'passed', 1],
    ['on-failure', 'timedOut', 'passed', 1],
    ['on-failure', 'passed', 'passed', 0],
    // test.fail(): failing was expected, passing was not.
    ['on-failure', 'failed', 'failed', 0],
    ['on-failure', 'passed', 'failed', 1],
    ['always', 'passed', 'passed', 1],
    ['never', 'failed', 'passed', 0],
  ])('%s, a test that %s when it was expected to have %s: %i attachment(s)', async (mode, status, expected, count) => {
    const { testInfo, attachments } = testInfoOf(status, expected)
    await attachWorld(world, testInfo, mode)
    expect(attachments).toHaveLength(count)
    for (const attachment of attachments) {
      expect([attachment.name, attachment.contentType]).toEqual(['mock-world', 'application/json'])
      expect(attachment.body).not.toContain('secret-password')
      const bundle = worldBundleSchema.parse(JSON.parse(attachment.body))
      expect([bundle.world, bundle.commands.map((command) => command.method)]).toEqual([world.worldId, ['POST']])
    }
  })

  it('turns a bundle it cannot take into a warning, never an error of the test', async () => {
    const gone = await createMockWorld(server.url, { controlToken: TOKEN })
    await gone.delete()
    const { info, testInfo, attachments } = testInfoOf('failed')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      await expect(attachWorld(gone, testInfo, 'on-failure')).resolves.toBeUndefined()
      expect(attachments).toEqual([])
      expect(info.annotations).toEqual([
        { type: 'warning', description: expect.stringMatching(new RegExp(`^the bundle of world "${gone.worldId}" could not be attached: GET /__mock/bundle .* answered 404`)) },
      ])
      expect(warn).toHaveBeenCalledWith(`multi-area-mock: ${info.annotations[0]!.description}`)
    } finally {
      warn.mockRestore()
    }
  })
})
