// instrumentation.js
export async function register() {
  // Under test only, in Node.js: every fetch the server makes to the simulator carries the
  // world of the request it is rendering (the x-mock-world header or mock-world cookie).
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.MULTI_AREA_MOCK_URL) {
    const { headers } = await import('next/headers')
    const { propagateMockWorldFrom } = await import('multi-area-mock/node')
    propagateMockWorldFrom(headers)
  }
}
