/** openStore(spec) picks the backend a spec names and imports only that one. */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@skilltree/core';
import {
  isSharedStore,
  openStore,
  parseStoreSpec,
  registerStoreBackend,
  STORE_SPECS,
  type StoreBackend,
  storeBackends,
} from '@skilltree/store';
import { describe, expect, test } from 'vitest';
import { server } from './servers.js';

describe('openStore', () => {
  test('sqlite:<file> (relative to cwd), a .db path, postgres:// and redis:// open their backend', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'skilltree-open-'));
    const sqlite = await openStore('sqlite:./data/s.db', { cwd });
    expect(sqlite.name).toBe(`sqlite:${join(cwd, 'data', 's.db')}`);
    await sqlite.close();
    const bare = await openStore('other.db', { cwd });
    expect(bare.name).toBe(`sqlite:${join(cwd, 'other.db')}`);
    await bare.close();
    const postgres = await openStore(server('SKILLTREE_TEST_POSTGRES_URL'));
    expect(postgres.name).toMatch(/^postgres:postgres:\/\//);
    expect(await postgres.record('nothing')).toBeNull();
    await postgres.close();
    const redis = await openStore(server('SKILLTREE_TEST_REDIS_URL'));
    expect(redis.name).toMatch(/^redis:redis:\/\//);
    expect(await redis.record('nothing')).toBeNull();
    await redis.close();
    expect((await openStore('memory')).name).toBe('memory');
  });

  test('an unknown spec names the ones it takes', async () => {
    await expect(openStore('mysql://x')).rejects.toThrow(/Unknown store "mysql:\/\/x": use sqlite:<file>/);
  });

  test('a password in a URL does not show in the store name', async () => {
    const store = await openStore('postgres://user:secret@127.0.0.1:1/db');
    expect(store.name).toBe('postgres:postgres://user:***@127.0.0.1:1/db');
    await store.close();
  });
});

describe('the table of backends', () => {
  test('parseStoreSpec reads memory, sqlite:<file> (relative to cwd), postgres:// and redis://', () => {
    expect(parseStoreSpec('memory', '/w')).toEqual({ kind: 'memory' });
    expect(parseStoreSpec('sqlite:./data/s.db', '/w')).toEqual({ kind: 'sqlite', path: '/w/data/s.db' });
    expect(parseStoreSpec('sqlite:///abs/s.db', '/w')).toEqual({ kind: 'sqlite', path: '/abs/s.db' });
    expect(parseStoreSpec('postgresql://u:p@h/db', '/w')).toEqual({
      kind: 'postgres',
      connectionString: 'postgresql://u:p@h/db',
    });
    expect(parseStoreSpec('rediss://h:6380', '/w')).toEqual({ kind: 'redis', url: 'rediss://h:6380' });
    expect(() => parseStoreSpec('sqlite:', '/w')).toThrow('needs a file');
    // A path ending in .db is a SQLite file, unless another scheme comes first.
    expect(parseStoreSpec('data/s.db', '/w')).toEqual({ kind: 'sqlite', path: '/w/data/s.db' });
    expect(() => parseStoreSpec('mongodb://h/s.db', '/w')).toThrow('Unknown store "mongodb://h/s.db"');
    expect(STORE_SPECS).toBe('sqlite:<file>, postgres://…, redis://… or memory');
  });

  test('processes can share every store but memory and sqlite::memory:', () => {
    expect(isSharedStore({ kind: 'memory' })).toBe(false);
    expect(isSharedStore({ kind: 'sqlite', path: ':memory:' })).toBe(false);
    expect(isSharedStore({ kind: 'sqlite', path: '/w/s.db' })).toBe(true);
    expect(isSharedStore({ kind: 'postgres', connectionString: 'postgres://h/db' })).toBe(true);
    expect(isSharedStore({ kind: 'redis', url: 'redis://h' })).toBe(true);
    expect(() => isSharedStore({ kind: 'mongodb' })).toThrow('Unknown store kind "mongodb"');
  });

  test('a SQLite file that cannot be written fails on open, before anything is created, saying why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-open-'));
    writeFileSync(join(dir, 'notes.txt'), 'a file');
    await expect(openStore(`sqlite:${join(dir, 'notes.txt', 'sessions.db')}`)).rejects.toThrow(
      `Cannot write the session store ${join(dir, 'notes.txt', 'sessions.db')}: ${join(dir, 'notes.txt')} is a file, not a directory. Pass a path in a directory you can write.`,
    );
    await expect(openStore(`sqlite:${dir}`)).rejects.toThrow(`The session store ${dir} is a directory`);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  test('a backend registered from outside is one row: its specs parse, open and say whether they are shared', async () => {
    const opened: unknown[] = [];
    const backend: StoreBackend = {
      kind: 'fake-open',
      forms: 'fake-open:<name>',
      parse: (spec) => (spec.startsWith('fake-open:') ? { name: spec.slice('fake-open:'.length) } : undefined),
      shared: (options) => options.name === 'shared',
      open: async (options, common) => {
        opened.push({ options, common });
        return memoryStore();
      },
    };
    expect(() => parseStoreSpec('fake-open:a')).toThrow(/Unknown store "fake-open:a": use sqlite:<file>/);
    registerStoreBackend(backend);
    expect(storeBackends().map((b) => b.kind)).toContain('fake-open');
    expect(parseStoreSpec('fake-open:a')).toEqual({ kind: 'fake-open', name: 'a' });
    expect(isSharedStore(parseStoreSpec('fake-open:shared'))).toBe(true);
    const store = await openStore('fake-open:a', { prefix: 'p_' });
    expect(await store.record('nothing')).toBeNull();
    expect(opened).toEqual([{ options: { name: 'a' }, common: { prefix: 'p_' } }]);
    // Unknown specs now list the registered forms too.
    expect(() => parseStoreSpec('mysql://x')).toThrow('or fake-open:<name>');
    // Registering the kind again (a module evaluated again) replaces the row.
    registerStoreBackend({ ...backend, shared: () => false });
    expect(isSharedStore(parseStoreSpec('fake-open:shared'))).toBe(false);
    expect(storeBackends().filter((b) => b.kind === 'fake-open')).toHaveLength(1);
  });

  test('a built-in backend cannot be replaced, and a row must be complete', () => {
    const row = storeBackends().find((b) => b.kind === 'sqlite')!;
    expect(() => registerStoreBackend({ ...row })).toThrow('The store backend "sqlite" is built in');
    expect(() => registerStoreBackend({ ...row, kind: 'Bad Kind' })).toThrow('needs a kind of lowercase letters');
    expect(() => registerStoreBackend({ ...row, kind: 'half', open: undefined as never })).toThrow(
      'The store backend "half" has no open() function.',
    );
  });
});
