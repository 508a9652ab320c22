import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One `npm pack` for every test that installs the package.
    globalSetup: ['test/support/pack-once.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
