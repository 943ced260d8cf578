/**
 * `@skilltree/store/redis`: sessions in Redis, with ioredis. For several processes or machines
 * serving the same sessions, when Redis is what you run.
 *
 * @packageDocumentation
 */
import {
  checkEpoch,
  type LoadedSession,
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
  parseBody,
  SCHEMA_VERSION,
  schemaTooNew,
  settlement,
  whole,
} from './common.js';
import {
  ACQUIRE,
  ADD_SPEND,
  COMMIT,
  DELETE,
  LOAD,
  MOVE_SPEND,
  READ_SCHEMA,
  RELEASE,
  RENEW,
  REQUEST_STOP,
  RESERVE_SPEND,
  SCHEMA,
  SETTLE_SPEND,
  STOP_REQUESTED,
} from './redis-scripts.js';

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
    return { s: `${base}s`, m: `${base}m`, u: `${base}u`, l: `${base}l`, x: `${base}x` };
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
    // Schemas 2 and 5 only add what older keys read without (a hash field, see LEGACY_EPOCH; a stop
    // key): recording the newer version is their whole migration, and makes processes of older
    // versions refuse the keys.
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
      return { ...toRecord(id, hash), start, messages: bodies.map(parseBody) };
    },
    async messages(id, from, limit) {
      const n = whole(limit);
      if (n === 0) return [];
      const start = whole(from);
      const bodies = await (await c()).lrange(keys(id).m, start, start + n - 1);
      return bodies.map(parseBody);
    },
    async acquire(id, holder, ttl) {
      return (await ACQUIRE.run(await c(), [keys(id).l], [holder, Math.max(1, whole(ttl))])) === 1;
    },
    async renew(id, holder, ttl) {
      const k = keys(id);
      return (await RENEW.run(await c(), [k.l, k.s], [holder, Math.max(1, whole(ttl))])) === 1;
    },
    async release(id, holder) {
      const k = keys(id);
      await RELEASE.run(await c(), [k.l, k.x], [holder]);
    },
    async requestStop(id) {
      const k = keys(id);
      return (await REQUEST_STOP.run(await c(), [k.l, k.x], [])) === 1;
    },
    async stopRequested(id, holder) {
      const k = keys(id);
      return (await STOP_REQUESTED.run(await c(), [k.l, k.x], [holder])) === 1;
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
      return (await DELETE.run(await c(), [k.s, k.m, k.u, k.l, k.x], [])) === 1;
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
