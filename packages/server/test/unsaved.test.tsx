/**
 * What the UI stream says happened, happened: a tool that ran but whose result the store could not
 * save is shown as such, never as "Not run".
 */
import { memoryStore, type SessionStore } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import { client, startServer, type TestServer } from './helpers.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

/** A memory store whose commits fail once they carry an `add_note` result. */
function failingAfterNote(): SessionStore {
  const inner = memoryStore();
  return Object.assign(Object.create(inner) as SessionStore, {
    async commit(...args: Parameters<SessionStore['commit']>) {
      if (args[1].append.some((m) => m.role === 'tool' && m.name === 'add_note')) {
        throw new Error('the database went away');
      }
      return inner.commit(...args);
    },
  });
}

describe('"could not be saved" is not "not run"', () => {
  it('a tool whose result could not be saved shows as having run, with that error, in the UI stream', async () => {
    server = await startServer({ sessionsOptions: { store: failingAfterNote() } });
    const { chunks } = await client(server.url).send('c1', 'note milk');
    const outcome = chunks.filter((c) => c.type === 'tool-output-error' || c.type === 'tool-output-available');
    expect(outcome.at(-1)).toMatchObject({ type: 'tool-output-error' });
    expect((outcome.at(-1) as { errorText: string }).errorText).toMatch(
      /^Tool "add_note" ran, but its result could not be saved/,
    );
    expect(JSON.stringify(chunks)).not.toMatch(/Not run|database/);
  });
});
