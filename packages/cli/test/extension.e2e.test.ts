/**
 * A new provider and a new store backend are one file each plus one table row (CONTRIBUTING.md):
 * the fixture package test/fixtures/extension adds `echo` (a model) and `log` (a store) that way,
 * and `chat`, `run` and `serve` take both with nothing else changed.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Message, textOf } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';
import { chat, startServe } from './serve-helpers.js';

const AGENT = 'test/fixtures/extension/agent.tsx';
const key = { ECHO_API_KEY: 'test-key' };

describe('a provider added as one file and one row', () => {
  it('run takes --model <prefix>:<model-id> from the table', async () => {
    const result = await runCli(['run', AGENT, '-m', 'hello', '--model', 'echo:echo-7'], { env: key });
    expect(result.stderr).not.toMatch(/error|Unknown/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('echo-7 heard: hello\n');
  });

  it('is picked when its key is set, with its default model, and says so', async () => {
    const result = await runCli(['run', AGENT, '-m', 'hi'], { env: key });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Using echo:echo-1 (ECHO_API_KEY is set; choose with --model).');
    expect(result.stdout).toBe('echo-1 heard: hi\n');
  });

  it('asks for its key by the name the row gives', async () => {
    const result = await runCli(['run', AGENT, '-m', 'hi', '--model', 'echo']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--model echo:echo-1 needs ECHO_API_KEY in the environment.');
  });
});

/** The echo model, session "notes", in the `log` backend's file `sessions.db` (under the run's folder). */
const LOG_FLAGS = ['--model', 'echo', '--session', 'notes', '--store', 'log:sessions.db'];

/** A new folder in which one `run` said "one" to session "notes" of the `log` backend: its path. */
async function afterOneRun(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'skilltree-extension-'));
  expect(
    (await runCli(['run', join(process.cwd(), AGENT), '-m', 'one', ...LOG_FLAGS], { env: key, cwd: dir })).code,
  ).toBe(0);
  return dir;
}

describe('a store backend added as one file and one row', () => {
  it('run keeps the session in it, and the next run resumes from it', async () => {
    const dir = await afterOneRun();
    const second = await runCli(['run', join(process.cwd(), AGENT), '-m', 'two', ...LOG_FLAGS, '--json'], {
      env: key,
      cwd: dir,
    });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).transcript.map((m: Message) => textOf(m))).toEqual([
      'one',
      'echo-1 heard: one',
      'two',
      'echo-1 heard: two',
    ]);
    // The backend's own log: its commits, not the built-in SQLite backend's.
    expect(readFileSync(join(dir, 'sessions.db.log'), 'utf8')).toBe('notes v1 +2\nnotes v2 +2\n');
  });

  it('chat resumes from it', async () => {
    const dir = await afterOneRun();
    const chat = await runCli(['chat', join(process.cwd(), AGENT), ...LOG_FLAGS], {
      env: key,
      cwd: dir,
      stdin: 'two\n',
    });
    expect(chat.code).toBe(0);
    expect(chat.stderr).toContain('Resumed 2 messages from notes');
    expect(chat.stdout).toContain('echo-1 heard: two');
    expect(readFileSync(join(dir, 'sessions.db.log'), 'utf8')).toBe('notes v1 +2\nnotes v2 +2\n');
  });

  it('serve keeps its chats in it, with two workers (the row says processes can share it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-extension-'));
    const file = join(dir, 'served.db');
    const serve = await startServe(
      [AGENT, '--port', '0', '--model', 'echo', '--store', `log:${file}`, '--workers', '2'],
      key,
    );
    try {
      expect(serve.stdout()).toContain(`model echo:echo-1 · store log:${file} · 2 workers`);
      const last = await chat(serve.url, 'c1', 'hello');
      expect(last?.parts.at(-1)).toMatchObject({ type: 'text', text: 'echo-1 heard: hello' });
      // The backend's own log has the chat's commits (kept under a key the server derives from the
      // owner and the chat id).
      expect(readFileSync(`${file}.log`, 'utf8')).toMatch(/^\S+ v1 \+\d+\n\S+ v2 /);
    } finally {
      await serve.stop();
    }
  });
});
