/**
 * The Lua scripts the Redis store runs, each one atomic step on the keys of one session (or of one
 * owner's spend), and the keys they work on.
 */
import { createHash } from 'node:crypto';
import { LEGACY_EPOCH } from './common.js';

/** The two commands a script runs with, as the store's `RedisClient` has them. */
export interface LuaClient {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
}

/** A Lua script, run with EVALSHA (and EVAL when the server does not have it cached yet). */
export class Script {
  readonly sha: string;
  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }
  async run(client: LuaClient, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      return client.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}

// Keys of one session (the id in braces, so a Redis Cluster keeps them in one slot):
//   s  hash: epoch, version, length, state, owner, created, updated (no epoch: written by schema 1)
//   m  list of message JSON, index = position in the transcript
//   u  sorted set of the positions of user messages
//   l  the turn lease: the holder, with an expiry (SET NX PX semantics)
//   x  a stop asked of the running turn: the holder of the lease it was asked of (schema 5)
const NOW = `local t = redis.call('TIME'); local now = t[1] * 1000 + math.floor(t[2] / 1000)`;

/** KEYS s, u, m; ARGV window. Returns false, or { record fields, start, messages }. */
export const LOAD = new Script(`
local rec = redis.call('HGETALL', KEYS[1])
if #rec == 0 then return false end
local len = tonumber(redis.call('HGET', KEYS[1], 'length'))
local earliest = math.max(0, len - math.max(1, tonumber(ARGV[1])))
local start = earliest
local first = redis.call('ZRANGEBYSCORE', KEYS[2], earliest, '+inf', 'LIMIT', 0, 1)
if #first > 0 then start = tonumber(first[1]) else
  local last = redis.call('ZREVRANGE', KEYS[2], 0, 0)
  if #last > 0 then start = tonumber(last[1]) end
end
return { rec, start, redis.call('LRANGE', KEYS[3], start, len - 1) }`);

/** KEYS spend hash; ARGV tokens, dollars, expires (epoch ms). Returns { tokens, dollars as text }. */
export const ADD_SPEND = new Script(`
local t = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[1])
local d = redis.call('HINCRBYFLOAT', KEYS[1], 'dollars', ARGV[2])
local at = tonumber(ARGV[3])
local ttl = redis.call('PEXPIRETIME', KEYS[1])
if ttl < at then redis.call('PEXPIREAT', KEYS[1], at) end
return { t, d }`);

/**
 * KEYS spend hash; ARGV tokens, dollars, token limit ('' for none), dollar limit ('' for none),
 * expires (epoch ms). Adds the amount only when the total stays within both limits, in one atomic
 * step. Returns { 1 reserved or 0 refused, tokens, dollars as text }.
 */
export const RESERVE_SPEND = new Script(`
local t = tonumber(redis.call('HGET', KEYS[1], 'tokens') or '0')
local d = tonumber(redis.call('HGET', KEYS[1], 'dollars') or '0')
if (ARGV[3] ~= '' and t + tonumber(ARGV[1]) > tonumber(ARGV[3]))
  or (ARGV[4] ~= '' and d + tonumber(ARGV[2]) > tonumber(ARGV[4])) then
  return { 0, tostring(t), redis.call('HGET', KEYS[1], 'dollars') or '0' }
end
t = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[1])
local ds = redis.call('HINCRBYFLOAT', KEYS[1], 'dollars', ARGV[2])
local at = tonumber(ARGV[5])
if redis.call('PEXPIRETIME', KEYS[1]) < at then redis.call('PEXPIREAT', KEYS[1], at) end
return { 1, tostring(t), ds }`);

/**
 * KEYS spend hash; ARGV token delta, dollar delta (either may be negative), expires (epoch ms).
 * Never takes a total below zero. Returns { tokens, dollars as text }.
 */
export const SETTLE_SPEND = new Script(`
local t = tonumber(redis.call('HGET', KEYS[1], 'tokens') or '0')
local d = tonumber(redis.call('HGET', KEYS[1], 'dollars') or '0')
if t + tonumber(ARGV[1]) < 0 then redis.call('HSET', KEYS[1], 'tokens', 0)
else redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[1]) end
if d + tonumber(ARGV[2]) < 0 then redis.call('HSET', KEYS[1], 'dollars', 0)
else redis.call('HINCRBYFLOAT', KEYS[1], 'dollars', ARGV[2]) end
local at = tonumber(ARGV[3])
if redis.call('PEXPIRETIME', KEYS[1]) < at then redis.call('PEXPIREAT', KEYS[1], at) end
return { redis.call('HGET', KEYS[1], 'tokens'), redis.call('HGET', KEYS[1], 'dollars') }`);

/**
 * KEYS old spend hash (schema 3), new one; adds the old totals to the new hash and deletes the old
 * one, in one step: processes that migrate at once move each hash exactly once.
 */
export const MOVE_SPEND = new Script(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], 'tokens', redis.call('HGET', KEYS[1], 'tokens') or '0')
redis.call('HINCRBYFLOAT', KEYS[2], 'dollars', redis.call('HGET', KEYS[1], 'dollars') or '0')
local at = redis.call('PEXPIRETIME', KEYS[1])
if at > 0 and redis.call('PEXPIRETIME', KEYS[2]) < at then redis.call('PEXPIREAT', KEYS[2], at) end
redis.call('DEL', KEYS[1])
return 1`);

/** KEYS schema. The schema version recorded, or 0. */
export const READ_SCHEMA = new Script(`return tonumber(redis.call('GET', KEYS[1]) or '0')`);

/** KEYS l; ARGV holder, ttl. 1 when the caller holds the lease now. */
export const ACQUIRE = new Script(`
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`);

/**
 * KEYS l, s; ARGV holder, ttl. 1 when the holder's lease ran and now runs `ttl` ms longer; the
 * session's record is marked updated then (a turn that renews reads as running between commits).
 */
export const RENEW = new Script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('EXISTS', KEYS[2]) == 1 then
  ${NOW}
  redis.call('HSET', KEYS[2], 'updated', now)
end
return 1`);

/** KEYS l, x; ARGV holder. Gives the lease up, and a stop asked of it. */
export const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
end
return 0`);

/**
 * KEYS l, x. Asks the running lease's holder to stop: 1 when a lease runs (x now names its holder),
 * 0 when none does. x outlives the lease by a minute at most: it names one holder, so a later
 * lease never matches it, and the running turn reads it within a second.
 */
export const REQUEST_STOP = new Script(`
local holder = redis.call('GET', KEYS[1])
if not holder then return 0 end
redis.call('SET', KEYS[2], holder, 'PX', math.max(redis.call('PTTL', KEYS[1]), 1) + 60000)
return 1`);

/** KEYS l, x; ARGV holder. 1 when the holder's lease runs and a stop was asked of it. */
export const STOP_REQUESTED = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('GET', KEYS[2]) == ARGV[1] then return 1 end
return 0`);

/**
 * KEYS s, m, u, l; ARGV holder, version, ttl, state, owner ('=' + owner, or '' for none), epoch,
 * roles (u/-, one per message), messages... Returns { new version } or { error code, found version }.
 */
export const COMMIT = new Script(`
if redis.call('GET', KEYS[4]) ~= ARGV[1] then return { -1 } end
${NOW}
local read = tonumber(ARGV[2])
local found = redis.call('HGET', KEYS[1], 'version')
if read == 0 then
  if found then return { -2, tonumber(found) } end
  redis.call('DEL', KEYS[2], KEYS[3])
  redis.call('HSET', KEYS[1], 'epoch', ARGV[6], 'version', 0, 'length', 0, 'created', now)
  if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'owner', string.sub(ARGV[5], 2)) end
  found = 0
elseif not found then return { -3 }
elseif (redis.call('HGET', KEYS[1], 'epoch') or '${LEGACY_EPOCH}') ~= ARGV[6] then return { -4 }
elseif tonumber(found) ~= read then return { -2, tonumber(found) } end
local len = tonumber(redis.call('HGET', KEYS[1], 'length'))
local roles = ARGV[7]
for i = 8, #ARGV do
  local seq = len + i - 8
  redis.call('RPUSH', KEYS[2], ARGV[i])
  if string.sub(roles, i - 7, i - 7) == 'u' then redis.call('ZADD', KEYS[3], seq, seq) end
end
local version = tonumber(found) + 1
redis.call('HSET', KEYS[1], 'version', version, 'length', len + #ARGV - 7, 'state', ARGV[4], 'updated', now)
redis.call('PEXPIRE', KEYS[4], ARGV[3])
return { version }`);

/** KEYS schema; ARGV version. Records this schema version unless a newer one is there; returns the one there. */
export const SCHEMA = new Script(`
local found = tonumber(redis.call('GET', KEYS[1]) or '0')
if found < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]); return tonumber(ARGV[1]) end
return found`);

/** KEYS s, m, u, l, x. 1 when there was a session. */
export const DELETE = new Script(`
local n = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return n`);
