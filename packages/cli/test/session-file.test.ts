/**
 * `--session` on SQLite: a session saved by one CLI run resumes in the next; a session another
 * process wrote in between is not overwritten; `/reset` starts over.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@skilltree/core';
import { sqliteStore } from '@skilltree/store/sqlite';
import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';
import type { AgentModule } from '../src/kit/load-module.js';
import { chooseStore } from '../src/kit/store.js';
import {
  DEFAULT_STORE,
  openSession,
  type SessionSetup,
  saveSession,
  unreadableLines,
} from '../src/kit/stored-session.js';
import { storedSession } from './helpers/stored-session.js';

/** The SQLite file opened as a person would, to edit a record by hand (better-sqlite3, untyped here). */
interface SqliteFile {
  prepare(sql: string): { run(...values: unknown[]): unknown; all(...values: unknown[]): unknown[] };
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteFile;

const notes = core.createAgentStore('notes', () => ({ items: [] as string[] }));
const agent: AgentModule = {
  path: '/virtual/agent.tsx',
  core,
  exports: {},
  options: {},
  element: () =>
    h(
      core.Agent,
      null,
      h(core.Tool, {
        name: 'note',
        description: 'Keeps a note.',
        run: (_: unknown, ctx: core.ToolContext) => {
          notes.of(ctx).setState((s) => ({ items: [...s.items, 'n'] }));
          return 'noted';
        },
      }),
    ),
};

/** One open store per file, as one CLI process has. */
const stores = new Map<string, core.SessionStore>();
const storeOf = (file: string) => stores.get(file) ?? stores.set(file, sqliteStore({ path: file })).get(file)!;
const setup = (file: string, steps: core.ScriptedStep[]): SessionSetup => ({
  agent,
  options: { model: core.scriptedModel(steps) },
  session: 'cart',
  store: storeOf(file),
});
const noting: core.ScriptedStep[] = [{ toolCalls: [{ name: 'note' }] }, { text: 'Noted.' }];

/** A new store file holding chat "cart" after one message (`text`) that took a note: its path. */
async function savedChat(text: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'skilltree-cli-store-')), 'sessions.db');
  const first = await openSession(setup(file, noting));
  await first.session.send(text);
  await saveSession(first.session, setup(file, noting));
  first.session.dispose();
  return file;
}

describe('--session on SQLite', () => {
  it('resolves --store sqlite:<file>, a .db path, and the default against the working directory', async () => {
    const here = join(import.meta.dirname, 'fixtures', 'shop-agent.tsx');
    expect((await chooseStore('sqlite:./a/b.db', here, '/w')).spec).toEqual({ kind: 'sqlite', path: '/w/a/b.db' });
    expect((await chooseStore('/abs/c.db', here, '/w')).spec).toEqual({ kind: 'sqlite', path: '/abs/c.db' });
    expect((await chooseStore(DEFAULT_STORE, here, '/w')).spec).toEqual({
      kind: 'sqlite',
      path: '/w/.skilltree/sessions.db',
    });
  });

  it('a saved session resumes with its transcript and stores; each save appends only what is new', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'skilltree-cli-store-')), 'sessions.db');
    const first = await openSession(setup(file, noting));
    expect(first.resumed).toBe(false);
    await first.session.send('note this');
    await saveSession(first.session, setup(file, noting));
    await saveSession(first.session, setup(file, noting)); // nothing new: nothing appended twice
    first.session.dispose();
    expect((await storedSession(file, 'cart')).messages).toHaveLength(4);

    const second = await openSession(setup(file, noting));
    expect(second.resumed).toBe(true);
    expect(second.session.transcript).toHaveLength(4);
    expect(second.session.store(notes).getState().items).toEqual(['n']);
    await second.session.send('and this');
    await saveSession(second.session, setup(file, noting));
    second.session.dispose();
    const saved = await storedSession(file, 'cart');
    expect(saved.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(saved.record?.state.stores).toEqual({ notes: { items: ['n', 'n'] } });
  });

  it('a chat with one bad record resumes: the record is named (chat and index) and the chat stays usable', async () => {
    const file = await savedChat('note this');
    // Message 3 (the assistant's reply) edited by hand into text that is not JSON.
    const db = new Database(file);
    db.prepare('UPDATE skilltree_messages SET body = ? WHERE session_id = ? AND seq = ?').run(
      '{"role": "ass',
      'cart',
      3,
    );
    db.close();

    const resumed = await openSession(setup(file, [{ text: 'Still here.' }]));
    expect(resumed.resumed).toBe(true);
    expect(resumed.unreadable).toEqual([{ chat: 'cart', index: 3, reason: 'the stored text is not a JSON message' }]);
    expect(unreadableLines(resumed)).toEqual([
      'Warning: Message 3 of chat "cart" could not be read from the store and is left out (the stored text is not a JSON message). Fix or delete that record to bring it back.',
    ]);
    // Every message keeps its place; the bad ones read as placeholders that say so.
    const transcript = resumed.session.transcript;
    // A record whose role cannot be read stands as a user message.
    expect(transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(core.textOf(transcript[3])).toContain('Message 3 of chat "cart" could not be read');
    // The chat goes on, and the next save appends after the records, leaving them as they are.
    expect((await resumed.session.send('and now?')).text).toBe('Still here.');
    await saveSession(resumed.session, setup(file, []));
    resumed.session.dispose();
    const stored = new Database(file);
    const bodies = stored
      .prepare('SELECT body FROM skilltree_messages WHERE session_id = ? ORDER BY seq')
      .all('cart') as { body: string }[];
    stored.close();
    expect(bodies).toHaveLength(6);
    expect(bodies[3].body).toBe('{"role": "ass');
  });

  it('a session another process saved in between is not overwritten: the save fails and says so', async () => {
    const file = await savedChat('one');
    const a = await openSession(setup(file, [{ text: 'A' }]));
    const b = await openSession(setup(file, [{ text: 'B' }]));
    await a.session.send('from a');
    await b.session.send('from b');
    await saveSession(a.session, setup(file, []));
    await expect(saveSession(b.session, setup(file, []))).rejects.toThrow(
      'Session "cart" changed in another process since this one loaded it',
    );
    const contents = (await storedSession(file, 'cart')).messages.map(core.textOf);
    expect(contents.slice(-2)).toEqual(['from a', 'A']);
    a.session.dispose();
    b.session.dispose();
  });

  it('/reset (fresh) deletes the stored session and starts an empty one', async () => {
    const file = await savedChat('one');
    const fresh = await openSession(setup(file, []), true);
    expect(fresh.resumed).toBe(false);
    await saveSession(fresh.session, setup(file, []));
    expect(await storedSession(file, 'cart')).toMatchObject({ record: { version: 1, length: 0 }, messages: [] });
    fresh.session.dispose();
  });
});
