import { ConfigError } from '../../kernel/errors/config-error.js'

/** The optional peer `@redis/client`, as this package uses it. */
export type RedisModule = typeof import('@redis/client')

/**
 * Loads the optional peer `@redis/client`; without it, a one-line `ConfigError` saying how to add it.
 *
 * @example
 * const { createClient } = await importRedisClient()
 */
export async function importRedisClient(load: () => Promise<RedisModule> = () => import('@redis/client')): Promise<RedisModule> {
  try {
    return await load()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error
    throw new ConfigError('Sharing worlds through Redis needs the Redis client, which is not installed: run `npm i -D @redis/client`.')
  }
}
