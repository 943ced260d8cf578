/**
 * `skilltree serve` runs its turns on the module's durable engine: an `engine` export (an engine,
 * or a function serve calls once in the serving process) is passed to `createSessions`, and the
 * engine is closed when serve stops. A wrong export is refused before anything listens, naming it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';
import { chat, type ServeProcess, startServe, stopServesAfterEach } from './serve-helpers.js';

let serve: ServeProcess | undefined;
stopServesAfterEach();

describe("skilltree serve runs turns on the module's engine", () => {
  it('makes the engine once in the serving process, runs each turn on it, and closes it on stop', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'skilltree-engine-')), 'engine.log');
    serve = await startServe(['test/fixtures/serve-engine-agent.tsx', '--port', '0'], {
      SKILLTREE_TEST_ENGINE_LOG: log,
    });
    await chat(serve.url, 'c1', 'hello');
    await chat(serve.url, 'c2', 'hello again');
    expect(await serve.stop()).toBe(0);
    serve = undefined;
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines.filter((l) => l.startsWith('made '))).toHaveLength(1);
    expect(lines[1]).toBe('register');
    expect(lines.filter((l) => l.startsWith('run '))).toEqual(['run c1', 'run c2']);
    // Each turn's session is opened and its model called as recorded steps.
    expect(lines).toContain('step open');
    expect(lines.some((l) => l.startsWith('step model'))).toBe(true);
    expect(lines.at(-1)).toBe('close');
  });

  it('closes an engine given in sessionOptions on stop too, after the sessions', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'skilltree-engine-')), 'engine.log');
    serve = await startServe(['test/fixtures/serve-options-engine-agent.tsx', '--port', '0'], {
      SKILLTREE_TEST_ENGINE_LOG: log,
    });
    await chat(serve.url, 'c1', 'hello');
    expect(await serve.stop()).toBe(0);
    serve = undefined;
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toContain('run c1');
    expect(lines.at(-1)).toBe('close');
  });

  it('an engine export that is not an engine is refused with its name, before serve listens', async () => {
    const result = await runCli(['serve', 'test/fixtures/serve-bad-engine-agent.tsx', '--port', '0']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      '"engine" returned null, not a durable engine (with register, run, step and close)',
    );
    expect(result.stdout).not.toContain('skilltree serve: http');
  });
});
