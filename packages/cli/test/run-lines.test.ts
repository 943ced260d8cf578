import type { SessionEvent } from '@skilltree/core';
import { textContent } from '@skilltree/core/provider';
import { NESTED_CHECKER, subagentRun } from '@skilltree/test-kit';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../src/kit/print.js';
import { createTurnPrinter } from '../src/kit/turn-printer.js';

function capture() {
  const writes: string[] = [];
  return { writes, output: { isTTY: false, write: (s: string) => writes.push(s) } };
}

const run = subagentRun;

const inRun = (event: SessionEvent, runId = 'run_c1', name = 'researcher'): SessionEvent => ({
  type: 'subagent-event',
  runId,
  name,
  event,
});

describe('subagent runs in the CLI', () => {
  it('prints a run indented under the call that spawned it: its start, calls, results, reply and end', () => {
    const { writes, output } = capture();
    const printer = createTurnPrinter(output, { style: createStyle(output, {}) });
    const nested = run(NESTED_CHECKER);
    const events: SessionEvent[] = [
      { type: 'tool-call', toolCall: { id: 'c1', name: 'researcher', input: { task: 'A-1' } } },
      { type: 'subagent-start', run: run() },
      inRun({ type: 'request', request: {} as never, step: 1 }),
      inRun({ type: 'text-delta', text: 'Looking.' }),
      inRun({ type: 'message', message: { role: 'assistant', content: textContent('Looking.') } }),
      inRun({ type: 'tool-call', toolCall: { id: 'r1', name: 'lookup', input: { order: 'A-1' } } }),
      inRun({
        type: 'tool-result',
        message: { role: 'tool', toolCallId: 'r1', name: 'lookup', content: textContent('shipped') },
      }),
      inRun({ type: 'tool-call', toolCall: { id: 'f1', name: 'checker', input: { task: 'check' } } }),
      inRun({ type: 'subagent-start', run: nested }),
      inRun(inRun({ type: 'tool-call', toolCall: { id: 'k1', name: 'verify', input: {} } }, 'run_f1', 'checker')),
      inRun({
        type: 'subagent-finish',
        run: { ...nested, status: 'failed', error: 'Subagent "checker" reached maxSteps (2).' },
      }),
      { type: 'subagent-finish', run: run({ status: 'done', usage: { inputTokens: 1200, outputTokens: 34 } }) },
      {
        type: 'tool-result',
        message: { role: 'tool', toolCallId: 'c1', name: 'researcher', content: textContent('A-1 shipped') },
      },
    ];
    for (const event of events) printer.event(event);
    printer.end();
    expect(writes.join('')).toBe(
      [
        '  ⚙ researcher {"task":"A-1"}',
        '    ▸ researcher started (isolated)',
        '      researcher › Looking.',
        '      ⚙ lookup {"order":"A-1"}',
        '        ↳ shipped',
        '      ⚙ checker {"task":"check"}',
        '        ▸ checker started (fork)',
        '          ⚙ verify {}',
        '        ✗ checker failed: Subagent "checker" reached maxSteps (2).',
        '    ◂ researcher done · 1,234 tokens',
        '    ↳ A-1 shipped',
        '',
      ].join('\n'),
    );
  });

  it("a run's streamed text is not printed as the reply: the agent's reply stays its own", () => {
    const { writes, output } = capture();
    const printer = createTurnPrinter(output, { style: createStyle(output, {}) });
    printer.event({ type: 'subagent-start', run: run() });
    printer.event(inRun({ type: 'text-delta', text: 'run text' }));
    printer.event({ type: 'text-delta', text: 'Done.' });
    printer.end();
    expect(writes.join('')).toBe('    ▸ researcher started (isolated)\nagent › Done.\n');
  });

  it('prints nothing of runs when tool lines are off (run without --verbose)', () => {
    const { writes, output } = capture();
    const printer = createTurnPrinter(output, { style: createStyle(output, {}), tools: false, reply: false });
    printer.event({ type: 'subagent-start', run: run() });
    printer.event({ type: 'subagent-finish', run: run({ status: 'done' }) });
    printer.end();
    expect(writes.join('')).toBe('');
  });
});
