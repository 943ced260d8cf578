/**
 * A module's `engine` export is hostile input to `skilltree serve`: a function that throws, a
 * Promise that rejects (made when the module was imported), or one that never settles. Each ends
 * serve with an error that names the module, the export and the fix, before anything listens:
 * never Node's bare rejection, never a silent exit. Each test waits for the process to exit.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

async function serveOf(fixture: string) {
  return runCli(['serve', `test/fixtures/${fixture}`, '--port', '0']);
}

describe('skilltree serve refuses a hostile engine export, naming it and the fix', () => {
  it('an engine function that throws: its error, under the module and export name', async () => {
    const result = await serveOf('serve-engine-throws-agent.tsx');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'serve-engine-throws-agent.tsx: "engine" failed: no database at postgres://127.0.0.1:1/none',
    );
    expect(result.stdout).not.toContain('skilltree serve: http');
  });

  it('an engine export that is a rejected Promise: named, with its reason and the fix, not a bare rejection', async () => {
    const result = await serveOf('serve-engine-rejects-agent.tsx');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'serve-engine-rejects-agent.tsx: "engine" is a Promise (made when the module was imported, and it rejected: vault unreachable): export a function that makes the engine instead',
    );
    // Not Node's own report of an unhandled rejection (the source line, a stack).
    expect(result.stderr).not.toMatch(/ModuleJob|Node\.js v|\^\n/);
    expect(result.stdout).not.toContain('skilltree serve: http');
  });
});
