import { createClient } from '@redis/client'

/**
 * Runs one command on a plain client of its own, to look behind the log's (or
 * the journal's) back.
 *
 * @example
 * await redisCommand(redis.url, ['XLEN', 'mam:{default}:log'])
 */
export async function redisCommand(url: string, args: string[]): Promise<unknown> {
  const client = createClient({ url })
  await client.connect()
  try {
    return await client.sendCommand(args)
  } finally {
    client.destroy()
  }
}

/**
 * How many times Redis ran `name` since the last `CONFIG RESETSTAT`, subcommands counted in.
 *
 * @example
 * await commandCalls(redis.url, 'eval')
 */
export async function commandCalls(url: string, name: string): Promise<number> {
  const stats = String(await redisCommand(url, ['INFO', 'commandstats']))
  return [...stats.matchAll(new RegExp(`cmdstat_${name}(?:\\|\\w+)?:calls=(\\d+)`, 'g'))].reduce((sum, match) => sum + Number(match[1]), 0)
}
