/**
 * The Lua scripts `RedisLog` runs: each one round trip, atomic in Redis. Keys
 * and arguments are documented where `RedisLog` calls them.
 */

/** The one field of every stream entry. */
export const STREAM_FIELD = 'e'

/**
 * What an entry longer than a read's limit comes back as, with its length in
 * bytes after it: Redis never sends it whole (no JSON starts with `#`).
 */
export const OVERSIZED = '#oversized:'

// An entry's fields, each value over `max` bytes replaced by OVERSIZED and its length (Lua's # counts bytes).
const BOUNDED = `local function bounded(entries, max)
  for _, entry in ipairs(entries) do
    local fields = entry[2]
    for i = 2, #fields, 2 do
      if #fields[i] > max then fields[i] = '${OVERSIZED}' .. #fields[i] end
    end
  end
  return entries
end
`

// Scripts go whole (EVAL): Redis caches them compiled, a restarted one needs nothing resent. LAST_ID returns only the id,
// however large the entry; a stream a snapshot trimmed empty ends at the snapshot's id.
export const LAST_ID = `local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1] return last and last[1] or redis.call('HGET', KEYS[2], 'id') or '0-0'`
// Appends, and in the same round trip reads what others appended since `after`, the new entry included (at most 1,000),
// each over ARGV[3] bytes as OVERSIZED.
export const APPEND_AFTER = `${BOUNDED}local id = redis.call('XADD', KEYS[1], '*', '${STREAM_FIELD}', ARGV[1])
return { id, redis.call('HGET', KEYS[2], 'id') or '', bounded(redis.call('XRANGE', KEYS[1], '(' .. ARGV[2], id, 'COUNT', 1000), tonumber(ARGV[3])) }`
// The snapshot's id comes with the page, so a trimmed gap is seen in the same round trip; an entry over ARGV[3] bytes as OVERSIZED.
export const READ = `${BOUNDED}return { redis.call('HGET', KEYS[2], 'id') or '', bounded(redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+', 'COUNT', ARGV[2]), tonumber(ARGV[3])) }`
// `order` is the id zero-padded (see `orderOf`): compared as text, it compares as an id.
export const WRITE_SNAPSHOT = `local kept = redis.call('HGET', KEYS[1], 'order')
if kept and kept >= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'data', ARGV[2], 'order', ARGV[3])
redis.call('XTRIM', KEYS[2], 'MINID', ARGV[4])
return 1`
export const CLAIM = `redis.call('SET', KEYS[1], ARGV[1], 'NX') return redis.call('GET', KEYS[1])`
// A world's journal numbers its entries from 1, as one process's does: their ids are `0-<n>`, the next after the newest
// (trimming never removes the newest); emptied (DEL), it starts again at 1. ARGV: maxLen, ttlMs (0: none), the entries.
// The journal is no world state: kept out of the AOF and Redis replicas (`set_repl`), so a read's entry costs Redis no fsync.
export const APPEND_JOURNAL = `redis.replicate_commands()
redis.set_repl(redis.REPL_NONE)
local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
local n = newest and tonumber(string.match(newest[1], '%d+$')) or 0
local numbers = {}
for i = 3, #ARGV do
  n = n + 1
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '0-' .. n, '${STREAM_FIELD}', ARGV[i])
  numbers[#numbers + 1] = n
end
if ARGV[2] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return numbers`
