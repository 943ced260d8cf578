/**
 * Subagent runs in the CLI, end to end (the real binary, the fixture's demo): `chat` prints a run
 * indented under the call that spawned it, and `run --json` includes the session's runs.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

const DEMO = 'test/fixtures/subagent-demo.tsx';

describe('subagent runs in the CLI', () => {
  it('chat prints a run under its call: its start, its tool call and result, its reply and its end', async () => {
    const { code, stdout } = await runCli(['chat', DEMO], { stdin: '' });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  ⚙ researcher'));
    expect(at).toBeGreaterThan(-1);
    expect(lines.slice(at + 1, at + 6)).toEqual([
      '    ▸ researcher started (isolated)',
      '      ⚙ lookup {}',
      '        ↳ A-1: shipped 2025-10-12',
      '      researcher › A-1 shipped on 2025-10-12.',
      expect.stringMatching(/^ {4}◂ researcher done · [\d,]+ tokens \(estimated\)$/),
    ]);
    expect(lines[at + 6]).toBe('    ↳ A-1 shipped on 2025-10-12.');
    expect(stdout).toContain('agent › It shipped on 2025-10-12.');
  });

  it('run --json includes the runs: name, status, the run’s own transcript, usage and result', async () => {
    const { code, stdout } = await runCli(['run', DEMO, '--json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.reply).toBe('It shipped on 2025-10-12.');
    expect(out.subagentRuns).toHaveLength(1);
    expect(out.subagentRuns[0]).toMatchObject({
      name: 'researcher',
      status: 'done',
      depth: 1,
      context: 'isolated',
      result: 'A-1 shipped on 2025-10-12.',
    });
    expect(out.subagentRuns[0].transcript.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(out.subagentRuns[0].usage.inputTokens).toBeGreaterThan(0);
  });

  it('chat prints a call waiting inside a run under its run, and asks about it naming the run', async () => {
    const { code, stdout } = await runCli(['chat', 'test/fixtures/subagent-approval-demo.tsx'], { stdin: '' });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines).toContain('      ⏸ refund {} waits for approval');
    expect(stdout).not.toContain('\n  ⏸ refund');
    expect(stdout).toContain('? Run refund {} in refunder? y to approve');
  });
});
