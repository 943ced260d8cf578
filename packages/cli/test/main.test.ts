import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../src/kit/io.js';
import { main, version } from '../src/main.js';

function fakeIo(env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  const io: Io = {
    stdin: new PassThrough(),
    stdout: { write: (s: string) => (out.stdout += s) },
    stderr: { write: (s: string) => (out.stderr += s) },
    env,
    cwd: process.cwd(),
  };
  return { io, out };
}

describe('main (in process)', () => {
  it('prints the version and help', async () => {
    const a = fakeIo();
    expect(await main(['--version'], a.io)).toBe(0);
    expect(a.out.stdout.trim()).toBe(version());
    expect(version()).toMatch(/^\d+\.\d+\.\d+/);
    const b = fakeIo();
    expect(await main(['--help'], b.io)).toBe(0);
    expect(b.out.stdout).toContain('skilltree chat <module>');
    const c = fakeIo();
    expect(await main(['help', 'run'], c.io)).toBe(0);
    expect(c.out.stdout).toContain('--json');
    const d = fakeIo();
    expect(await main(['chat', '--help'], d.io)).toBe(0);
    expect(d.out.stdout).toContain('/request');
  });

  it('resolves to 2 with one clear line on usage errors', async () => {
    const { io, out } = fakeIo();
    expect(await main(['run', 'agent.tsx', '--frobnicate'], io)).toBe(2);
    expect(out.stderr).toMatch(/^skilltree: Unknown flag --frobnicate\.\nRun "skilltree --help" for usage\.\n$/);
    expect(out.stdout).toBe('');
  });

  it('resolves to 1 when the module does not exist', async () => {
    const { io, out } = fakeIo();
    expect(await main(['run', 'nowhere/agent.tsx', '-m', 'hi'], io)).toBe(1);
    expect(out.stderr).toMatch(/Agent module not found: nowhere\/agent\.tsx/);
  });
});
