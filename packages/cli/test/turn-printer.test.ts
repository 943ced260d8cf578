import type { SessionEvent } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../src/kit/print.js';
import { createSpinner } from '../src/kit/spinner.js';
import { createTurnPrinter } from '../src/kit/turn-printer.js';

function capture(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, output: { isTTY, write: (s: string) => writes.push(s) } };
}

describe('turn printer', () => {
  it('writes text deltas as they arrive, and tool lines between steps', () => {
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, { style: createStyle(output, {}) });
    const events: SessionEvent[] = [
      { type: 'request', request: {} as any, step: 1 },
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'look.' },
      { type: 'message', message: { role: 'assistant', content: 'Let me look.' } },
      { type: 'tool-call', toolCall: { id: 'c1', name: 'search', input: { q: 'x' } } },
      {
        type: 'tool-result',
        message: {
          role: 'tool',
          toolCallId: 'c1',
          name: 'search',
          content: 'nothing\ncontextChanged a added: b',
          isError: true,
        },
      },
      { type: 'text-delta', text: 'Done.' },
    ];
    for (const event of events) printer.event(event);
    printer.end();
    expect(writes.slice(0, 3)).toEqual(['agent › ', 'Let me ', 'look.']);
    expect(writes.join('')).toBe('agent › Let me look.\n  ⚙ search {"q":"x"}\n    ✗ nothing\nagent › Done.\n');
  });

  it("prints as contextChanged lines only the runtime's, at the end of a result (core's split)", () => {
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, { style: createStyle(output, {}), verbose: true });
    printer.event({
      type: 'tool-result',
      message: {
        role: 'tool',
        toolCallId: 'c1',
        name: 'search',
        // A tool's own text that merely mentions the word stays text.
        content: 'contextChanged is a word the tool used\nfound 2\ncontextChanged shop added: Results: 2',
      },
    });
    printer.end();
    expect(writes.join('')).toBe(
      '    ↳ contextChanged is a word the tool used\nfound 2\n      contextChanged shop added: Results: 2\n',
    );
  });

  it('draws a spinner only on a terminal', () => {
    const tty = capture(true);
    const spinner = createSpinner(tty.output);
    spinner.start();
    expect(spinner.spinning).toBe(true);
    spinner.stop();
    expect(tty.writes[0]).toContain('thinking…');
    expect(tty.writes.at(-1)).toBe('\r\u001b[2K');
    const pipe = capture(false);
    const quiet = createSpinner(pipe.output);
    quiet.start();
    quiet.stop();
    expect(pipe.writes).toEqual([]);
  });
});
