/**
 * `@skilltree/store/redis`: sessions in Redis, with ioredis. For several processes or machines
 * serving the same sessions, when Redis is what you run.
 *
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';
import {
  checkEpoch,
  type LoadedSession,
  type Message,
  type SessionRecord,
  type SessionStore,
  type StoredState,
} from '@skilltree/core/provider';
import { Redis } from 'ioredis';
import {
  addable,
  checkPrefix,
  conflict,
  LEGACY_EPOCH,
  legacyOwnerKey,
  limitOf,
  once,
  outageReporter,
  SCHEMA_VERSION,
  schemaTooNew,
  settlement,
  whole,
} from './common.js';

/**
 * The commands the store sends, as an ioredis `Redis` or `Cluster` client has them: either fits,
 * and the store's types need nothing of ioredis.
 */
export interface RedisClient {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  hgetall(key: string): Promise<Record<string, string>>;
  hmget(key: string, ...fields: string[]): Promise<(string | null)[]>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  /** Used once, to move spend written by schema 3 (a Cluster client has none: see `docs/sessions.md`). */
  scan?(
    cursor: string,
    patternToken: 'MATCH',
    pattern: string,
    countToken: 'COUNT',
    count: number,
  ): Promise<[cursor: string, elements: string[]]>;
  /** The store listens for `error` and `ready` when no one else listens for `error`. */
  listenerCount(event: 'error'): number;
  on(event: 'error' | 'ready', listener: (...args: any[]) => void): unknown;
}

/** Options of {@link redisStore}: a URL, or a client you manage. */
export interface RedisStoreOptions {
  /** `redis://[:password@]host:port[/db]`. The store opens a client and `close()` quits it. */
  url?: string;
  /**
   * An ioredis `Redis` (or `Cluster`) client you created instead (any client of the
   * {@link RedisClient} shape). `close()` leaves it connected, and its options are yours (see
   * `timeout`). If it has no `error` listener, the store adds its own (see `onError`), so a lost
   * connection never prints "Unhandled error event" or crashes.
   */
  client?: RedisClient;
  /** Prefix of every key. Default `skilltree:`. */
  prefix?: string;
  /**
   * Milliseconds a command of the client the store opens may take, waiting for a connection
   * included, before it fails; also the time to connect. While Redis is down or hung, a turn
   * fails within a few of these instead of waiting for reconnection attempts. Default 2 000.
   */
  timeout?: number;
  /**
   * Called with the first error of each outage of the connection (the client reconnects by
   * itself; once it is back, the next error is a new outage). Default: one line on stderr.
   */
  onError?: (error: Error) => void;
}

/** A string as key text: its UTF-16 code units in base64url (no separator, never two strings alike). */
const exact = (text: string) => Buffer.from(text, 'utf16le').toString('base64url');

/** A Lua script, run with EVALSHA (and EVAL when the server does not have it cached yet). */
class Script {
  readonly sha: string;
  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }
  async run(client: RedisClient, keys: string[], args: (string | number)[]): Promise<unknown> {
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
const NOW = `local t = redis.call('TIME'); local now = t[1] * 1000 + math.floor(t[2] / 1000)`;

// KEYS s, u, m; ARGV window. Returns false, or { record fields, start, messages }.
const LOAD = new Script(`
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

// KEYS spend hash; ARGV tokens, dollars, expires (epoch ms). Returns { tokens, dollars as text }.
const ADD_SPEND = new Script(`
local t = redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[1])
local d = redis.call('HINCRBYFLOAT', KEYS[1], 'dollars', ARGV[2])
local at = tonumber(ARGV[3])
local ttl = redis.call('PEXPIRETIME', KEYS[1])
if ttl < at then redis.call('PEXPIREAT', KEYS[1], at) end
return { t, d }`);

// KEYS spend hash; ARGV tokens, dollars, token limit ('' for none), dollar limit ('' for none),
// expires (epoch ms). Adds the amount only when the total stays within both limits, in one atomic
// step. Returns { 1 reserved or 0 refused, tokens, dollars as text }.
const RESERVE_SPEND = new Script(`
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

// KEYS spend hash; ARGV token delta, dollar delta (either may be negative), expires (epoch ms).
// Never takes a total below zero. Returns { tokens, dollars as text }.
const SETTLE_SPEND = new Script(`
local t = tonumber(redis.call('HGET', KEYS[1], 'tokens') or '0')
local d = tonumber(redis.call('HGET', KEYS[1], 'dollars') or '0')
if t + tonumber(ARGV[1]) < 0 then redis.call('HSET', KEYS[1], 'tokens', 0)
else redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[1]) end
if d + tonumber(ARGV[2]) < 0 then redis.call('HSET', KEYS[1], 'dollars', 0)
else redis.call('HINCRBYFLOAT', KEYS[1], 'dollars', ARGV[2]) end
local at = tonumber(ARGV[3])
if redis.call('PEXPIRETIME', KEYS[1]) < at then redis.call('PEXPIREAT', KEYS[1], at) end
return { redis.call('HGET', KEYS[1], 'tokens'), redis.call('HGET', KEYS[1], 'dollars') }`);

// KEYS old spend hash (schema 3), new one; adds the old totals to the new hash and deletes the old
// one, in one step: processes that migrate at once move each hash exactly once.
const MOVE_SPEND = new Script(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], 'tokens', redis.call('HGET', KEYS[1], 'tokens') or '0')
redis.call('HINCRBYFLOAT', KEYS[2], 'dollars', redis.call('HGET', KEYS[1], 'dollars') or '0')
local at = redis.call('PEXPIRETIME', KEYS[1])
if at > 0 and redis.call('PEXPIRETIME', KEYS[2]) < at then redis.call('PEXPIREAT', KEYS[2], at) end
redis.call('DEL', KEYS[1])
return 1`);

// KEYS schema. The schema version recorded, or 0.
const READ_SCHEMA = new Script(`return tonumber(redis.call('GET', KEYS[1]) or '0')`);

// KEYS l; ARGV holder, ttl. 1 when the caller holds the lease now.
const ACQUIRE = new Script(`
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`);

// KEYS l, s; ARGV holder, ttl. 1 when the holder's lease ran and now runs `ttl` ms longer; the
// session's record is marked updated then (a turn that renews reads as running between commits).
const RENEW = new Script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('EXISTS', KEYS[2]) == 1 then
  ${NOW}
  redis.call('HSET', KEYS[2], 'updated', now)
end
return 1`);

// KEYS l; ARGV holder.
const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`);

// KEYS s, m, u, l; ARGV holder, version, ttl, state, owner ('=' + owner, or '' for none), epoch,
// roles (u/-, one per message), messages... Returns { new version } or { error code, found version }.
const COMMIT = new Script(`
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

// KEYS schema; ARGV version. Records this schema version unless a newer one is there; returns the one there.
const SCHEMA = new Script(`
local found = tonumber(redis.call('GET', KEYS[1]) or '0')
if found < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]); return tonumber(ARGV[1]) end
return found`);

// KEYS s, m, u, l. 1 when there was a session.
const DELETE = new Script(`
local n = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
return n`);

function toRecord(id: string, h: Record<string, string>): SessionRecord {
  return {
    id,
    owner: h.owner ?? null,
    epoch: h.epoch ?? LEGACY_EPOCH,
    version: Number(h.version),
    length: Number(h.length),
    state: JSON.parse(h.state ?? '{"loadedSkills":[],"stores":{}}') as StoredState,
    createdAt: Number(h.created),
    updatedAt: Number(h.updated ?? h.created),
  };
}

/**
 * A session store in Redis. Per session: a hash (version, length, state, owner), a list of
 * messages by position, a sorted set of user-message positions, and the lease, a key set with
 * `SET NX PX`-style expiry. Load, commit, acquire and release are Lua scripts, so each is atomic:
 * a commit checks the lease and the version, appends and bumps in one step.
 *
 * @example
 * import { redisStore } from '@skilltree/store/redis';
 * const store = redisStore({ url: 'redis://127.0.0.1:6379' });
 */
export function redisStore(options: RedisStoreOptions): SessionStore {
  const prefix = checkPrefix(options.prefix ?? 'skilltree:', true);
  if (!options.client && typeof options.url !== 'string') {
    throw new Error('redisStore needs { url } or { client } (an ioredis client).');
  }
  const timeout = options.timeout ?? 2_000;
  const owned = options.client
    ? null
    : new Redis(options.url!, {
        lazyConnect: true,
        // Bounded waits: a command (queued while reconnecting, or sent to a server that hangs) fails
        // after `timeout`, or at the first reconnection attempt that fails (Redis is down).
        commandTimeout: timeout,
        connectTimeout: timeout,
        maxRetriesPerRequest: 0,
        // Reconnect soon once Redis is back (ioredis backs off to 5 s by default).
        retryStrategy: (times) => Math.min(100 * times, 1_000),
      });
  const own = owned !== null;
  const client: RedisClient = options.client ?? owned!;
  const name = own ? `redis:${options.url!.replace(/\/\/([^@/]*)@/, '//***@')}` : 'redis:client';
  if (own || client.listenerCount('error') === 0) {
    const outage = outageReporter(name, options.onError);
    client.on('error', (error: unknown) => outage.report(error));
    client.on('ready', () => outage.recovered());
  }
  /**
   * An owner's spend in a period: one hash, expiring when the period is over. Both parts are
   * encoded exactly (UTF-16 code units), so no two pairs share a key. The owner is the owner's
   * key `createSessions` passes (schema 4); schema 3 kept the owner itself, under `spend:`.
   */
  const spendKey = (owner: string, period: string) => `${prefix}owner-spend:${exact(owner)}:${exact(period)}`;
  const keys = (id: string) => {
    const base = `${prefix}{${id}}:`;
    return { s: `${base}s`, m: `${base}m`, u: `${base}u`, l: `${base}l` };
  };

  /**
   * Schema 4 keeps spend under the owner's key: each schema-3 hash `spend:<owner>:<period>` is
   * added to its new key and deleted, one atomic step each. A Cluster client cannot scan every
   * node or move a hash across slots: there, schema-3 spend is left to expire with its period.
   */
  const moveSpend = async () => {
    const cluster = (client as { isCluster?: boolean }).isCluster === true;
    if (typeof client.scan !== 'function' || cluster) return;
    const old = `${prefix}spend:`;
    let cursor = '0';
    do {
      const [next, found] = await client.scan(cursor, 'MATCH', `${old}*`, 'COUNT', 500);
      cursor = next;
      for (const key of found) {
        const parts = key.slice(old.length).split(':');
        if (parts.length !== 2 || !parts.every((part) => /^[A-Za-z0-9_-]*$/.test(part))) continue;
        const owner = Buffer.from(parts[0], 'base64url').toString('utf16le');
        await MOVE_SPEND.run(client, [key, `${prefix}owner-spend:${exact(legacyOwnerKey(owner))}:${parts[1]}`], []);
      }
    } while (cursor !== '0');
  };

  const check = once(async () => {
    const schemaKey = `${prefix}schema`;
    const before = Number(await READ_SCHEMA.run(client, [schemaKey], []));
    if (before > SCHEMA_VERSION) throw schemaTooNew(name, before);
    if (before > 0 && before < 4) await moveSpend();
    // Schema 2 only adds a field a schema-1 hash reads without (see LEGACY_EPOCH): recording the
    // newer version is its whole migration, and makes processes of older versions refuse the keys.
    const found = Number(await SCHEMA.run(client, [schemaKey], [SCHEMA_VERSION]));
    if (found > SCHEMA_VERSION) throw schemaTooNew(name, found);
  });
  const c = async () => {
    await check();
    return client;
  };

  let closed = false;
  return {
    name,
    async record(id) {
      const k = keys(id);
      const flat = await (await c()).hgetall(k.s);
      return Object.keys(flat).length > 0 ? toRecord(id, flat) : null;
    },
    async load(id, window): Promise<LoadedSession | null> {
      const k = keys(id);
      const out = (await LOAD.run(await c(), [k.s, k.u, k.m], [whole(window)])) as [string[], number, string[]] | null;
      if (!out) return null;
      const [flat, start, bodies] = out;
      const hash: Record<string, string> = {};
      for (let i = 0; i < flat.length; i += 2) hash[flat[i]] = flat[i + 1];
      return { ...toRecord(id, hash), start, messages: bodies.map((b) => JSON.parse(b) as Message) };
    },
    async messages(id, from, limit) {
      const n = whole(limit);
      if (n === 0) return [];
      const start = whole(from);
      const bodies = await (await c()).lrange(keys(id).m, start, start + n - 1);
      return bodies.map((b) => JSON.parse(b) as Message);
    },
    async acquire(id, holder, ttl) {
      return (await ACQUIRE.run(await c(), [keys(id).l], [holder, Math.max(1, whole(ttl))])) === 1;
    },
    async renew(id, holder, ttl) {
      const k = keys(id);
      return (await RENEW.run(await c(), [k.l, k.s], [holder, Math.max(1, whole(ttl))])) === 1;
    },
    async release(id, holder) {
      await RELEASE.run(await c(), [keys(id).l], [holder]);
    },
    async commit(id, commit) {
      const k = keys(id);
      const [code, found] = (await COMMIT.run(
        await c(),
        [k.s, k.m, k.u, k.l],
        [
          commit.holder,
          commit.version,
          Math.max(1, whole(commit.leaseTtl)),
          JSON.stringify(commit.state),
          commit.owner == null ? '' : `=${commit.owner}`,
          checkEpoch(commit.epoch),
          commit.append.map((m) => (m.role === 'user' ? 'u' : '-')).join(''),
          ...commit.append.map((m) => JSON.stringify(m)),
        ],
      )) as [number, number?];
      if (code > 0) return code;
      if (code === -1) throw conflict.lease(id);
      if (code === -3) throw conflict.deleted(id);
      if (code === -4) throw conflict.epoch(id);
      if (commit.version === 0) throw conflict.created(id);
      throw conflict.version(id, found ?? -1, commit.version);
    },
    async delete(id) {
      const k = keys(id);
      return (await DELETE.run(await c(), [k.s, k.m, k.u, k.l], [])) === 1;
    },
    async spent(owner, period) {
      const [tokens, dollars] = await (await c()).hmget(spendKey(owner, period), 'tokens', 'dollars');
      return { tokens: Number(tokens ?? 0), dollars: Number(dollars ?? 0) };
    },
    async addSpend(owner, period, spend, expiresAt) {
      const { tokens, dollars } = addable(spend);
      const [t, d] = (await ADD_SPEND.run(
        await c(),
        [spendKey(owner, period)],
        [tokens, dollars.toFixed(12), whole(expiresAt)],
      )) as [number, string];
      return { tokens: Number(t), dollars: Number(d) };
    },
    async reserveSpend(owner, period, amount, limits, expiresAt) {
      const { tokens, dollars } = addable(amount);
      const max = (n: number | undefined) => {
        const limit = limitOf(n);
        return limit === null ? '' : String(limit);
      };
      const [reserved, t, d] = (await RESERVE_SPEND.run(
        await c(),
        [spendKey(owner, period)],
        [tokens, dollars.toFixed(12), max(limits?.tokens), max(limits?.dollars), whole(expiresAt)],
      )) as [number, string, string];
      return { reserved: reserved === 1, spent: { tokens: Number(t), dollars: Number(d) } };
    },
    async settleSpend(owner, period, reserved, used, expiresAt) {
      const delta = settlement(reserved, used);
      const [t, d] = (await SETTLE_SPEND.run(
        await c(),
        [spendKey(owner, period)],
        [delta.tokens, delta.dollars.toFixed(12), whole(expiresAt)],
      )) as [string, string];
      return { tokens: Number(t), dollars: Number(d) };
    },
    async close() {
      if (owned && !closed && owned.status !== 'end' && owned.status !== 'wait') await owned.quit();
      else if (owned && owned.status === 'wait') owned.disconnect();
      closed = true;
    },
  };
}
