/**
 * The conformance suite on every backend: memoryStore (core's reference), SQLite, and real
 * PostgreSQL and Redis servers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@skilltree/core';
import { postgresStore } from '@skilltree/store/postgres';
import { redisStore } from '@skilltree/store/redis';
import { sqliteStore } from '@skilltree/store/sqlite';
import { sessionStoreConformance } from '@skilltree/store/testing';
import { defaultSqliteDriver } from '../src/sqlite-driver.js';
import { runPrefix, server } from './servers.js';

const memory = memoryStore();
sessionStoreConformance('memoryStore', { open: () => memory });

// The driver this Node picks (node:sqlite on 22.13+ and 24, better-sqlite3 on 20).
const file = join(mkdtempSync(join(tmpdir(), 'skilltree-store-')), 'sessions.db');
sessionStoreConformance(`sqliteStore (${defaultSqliteDriver()})`, { open: () => sqliteStore({ path: file }) });

const pgPrefix = runPrefix('');
sessionStoreConformance('postgresStore', {
  open: () => postgresStore({ connectionString: server('SKILLTREE_TEST_POSTGRES_URL'), prefix: pgPrefix }),
});

const redisPrefix = `${runPrefix('')}:`;
sessionStoreConformance('redisStore', {
  open: () => redisStore({ url: server('SKILLTREE_TEST_REDIS_URL'), prefix: redisPrefix }),
});
