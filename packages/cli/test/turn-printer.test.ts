import type { ContextChange, SessionEvent } from '@skilltree/core';
import { textContent } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../src/kit/print.js';
import { createSpinner } from '../src/kit/spinner.js';
import { createTurnPrinter } from '../src/kit/turn-printer.js';

function capture(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, output: { isTTY, write: (s: string) => writes.push(s) } };
}

/** The `search` tool's result: its text, then a context-changed part holding `changes`. */
function searchResult(
  text: string,
  changes: ContextChange[],
  error: { isError: true; errorKind: 'threw' } | Record<string, never> = {},
): SessionEvent {
  return {
    type: 'tool-result',
    message: {
      role: 'tool',
      toolCallId: 'c1',
      name: 'search',
      content: [
        { type: 'text', text },
        { type: 'context-changed', changes },
      ],
      ...error,
    },
  };
}

describe('turn printer', () => {
  it('writes text deltas as they arrive, and tool lines between steps', () => {
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, { style: createStyle(output, {}) });
    const events: SessionEvent[] = [
      { type: 'request', request: {} as any, step: 1 },
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'look.' },
      { type: 'message', message: { role: 'assistant', content: textContent('Let me look.') } },
      { type: 'tool-call', toolCall: { id: 'c1', name: 'search', input: { q: 'x' } } },
      searchResult('nothing', [{ kind: 'line', skill: 'a', text: 'b' }], { isError: true, errorKind: 'threw' }),
      { type: 'text-delta', text: 'Done.' },
    ];
    for (const event of events) printer.event(event);
    printer.end();
    expect(writes.slice(0, 3)).toEqual(['agent › ', 'Let me ', 'look.']);
    expect(writes.join('')).toBe('agent › Let me look.\n  ⚙ search {"q":"x"}\n    ✗ nothing\nagent › Done.\n');
  });

  it("prints as contextChanged lines only the result's context-changed part, never its text", () => {
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, { style: createStyle(output, {}), verbose: true });
    // A tool's own text that looks like a contextChanged line stays text: the part says which is which.
    printer.event(
      searchResult('contextChanged shop added: a line the tool wrote\nfound 2', [
        { kind: 'line', skill: 'shop', text: 'Results: 2' },
      ]),
    );
    printer.end();
    expect(writes.join('')).toBe(
      '    ↳ contextChanged shop added: a line the tool wrote\nfound 2\n      contextChanged shop added: Results: 2\n',
    );
  });

  it('prints no reasoning unless asked', () => {
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, { style: createStyle(output, {}) });
    printer.event({ type: 'reasoning-delta', text: 'The user wants a lamp.' });
    printer.event({
      type: 'reasoning',
      reasoning: {
        type: 'reasoning',
        provider: 'anthropic',
        model: 'm',
        text: 'The user wants a lamp.',
        providerData: { signature: 'sig' },
      },
    });
    printer.event({ type: 'text-delta', text: 'Here.' });
    printer.end();
    expect(writes.join('')).toBe('agent › Here.\n');
  });

  it('--reasoning prints the reasoning as it streams, dimmed, on its own line before the reply', () => {
    const writes: string[] = [];
    const tty = { isTTY: true, write: (s: string) => writes.push(s) };
    const style = createStyle(tty, { FORCE_COLOR: '1' });
    const printer = createTurnPrinter(tty, { style, reasoning: true, spinner: false });
    const block = {
      type: 'reasoning' as const,
      provider: 'anthropic',
      model: 'm',
      text: 'The user wants a lamp.',
      providerData: { signature: 'sig' },
    };
    printer.event({ type: 'reasoning-delta', text: 'The user ' });
    printer.event({ type: 'reasoning-delta', text: 'wants a lamp.' });
    printer.event({ type: 'reasoning', reasoning: block });
    printer.event({ type: 'text-delta', text: 'Here.' });
    printer.end();
    const out = writes.join('');
    expect(out).toContain(style.dim('The user '));
    expect(out).toContain(style.dim('wants a lamp.'));
    expect(out).not.toContain('sig');
    const plain = out
      .split('\u001b[')
      .map((part, i) => (i === 0 ? part : part.replace(/^\d+m/, '')))
      .join('');
    expect(plain).toBe('thinking › The user wants a lamp.\nagent › Here.\n');
  });

  it('--reasoning prints a block that did not stream whole, and says when the provider hides it', () => {
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, { style: createStyle(output, {}), reasoning: true });
    printer.event({ type: 'request', request: {} as any, step: 1 });
    printer.event({
      type: 'reasoning',
      reasoning: { type: 'reasoning', provider: 'openai', model: 'm', text: 'Look it up.' },
    });
    printer.event({ type: 'tool-call', toolCall: { id: 'c1', name: 'search', input: {} } });
    printer.event({
      type: 'reasoning',
      reasoning: {
        type: 'reasoning',
        provider: 'openai',
        model: 'm',
        text: '',
        providerData: { encryptedContent: 'gAAA', itemId: 'rs_1' },
      },
    });
    printer.event({ type: 'text-delta', text: 'Done.' });
    printer.end();
    expect(writes.join('')).toBe(
      'thinking › Look it up.\n  ⚙ search {}\nthinking › (hidden by the provider)\nagent › Done.\n',
    );
  });

  it('run prints only the reasoning when asked for it without --verbose', () => {
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, {
      style: createStyle(output, {}),
      reply: false,
      tools: false,
      reasoning: true,
    });
    printer.event({ type: 'reasoning-delta', text: 'Hmm.' });
    printer.event({
      type: 'reasoning',
      reasoning: { type: 'reasoning', provider: 'anthropic', model: 'm', text: 'Hmm.' },
    });
    printer.event({ type: 'tool-call', toolCall: { id: 'c1', name: 'search', input: {} } });
    printer.event({ type: 'text-delta', text: 'Done.' });
    printer.end();
    expect(writes.join('')).toBe('thinking › Hmm.\n');
  });

  it('prints calls that wait, for approval or for the client (not in run without --verbose)', () => {
    const waiting: SessionEvent = {
      type: 'waiting',
      calls: [
        { toolCallId: 'c1', name: 'refund', input: { order: '7' }, for: 'approval', skill: null, status: 'waiting' },
        { toolCallId: 'c2', name: 'pick_date', input: {}, for: 'client', skill: null, status: 'waiting' },
        // An approved call that runs now is no longer waiting: nothing to print.
        { toolCallId: 'c3', name: 'refund', input: { order: '8' }, for: 'approval', skill: null, status: 'running' },
      ],
    };
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, { style: createStyle(output, {}) });
    printer.event(waiting);
    printer.end();
    expect(writes.join('')).toBe(
      '  ⏸ refund {"order":"7"} waits for approval\n  ⏸ pick_date {} waits for the client\n',
    );
    const quiet = capture(false);
    const runPrinter = createTurnPrinter(quiet.output, {
      style: createStyle(quiet.output, {}),
      reply: false,
      tools: false,
      reasoning: true,
    });
    runPrinter.event(waiting);
    runPrinter.end();
    expect(quiet.writes).toEqual([]);
  });

  it('prints each file a tool returned on one line (name, media type, size), never its bytes', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const { writes, output } = capture(false);
    const printer = createTurnPrinter(output, { style: createStyle(output, {}) });
    const result = (content: any[]): SessionEvent => ({
      type: 'tool-result',
      message: { role: 'tool', toolCallId: 'c1', name: 'screenshot', content },
    });
    printer.event(
      result([
        { type: 'text', text: 'The page now:' },
        { type: 'file', mediaType: 'image/png', data: png, filename: 'page.png' },
        { type: 'file', mediaType: 'application/pdf', url: 'https://cdn.example.com/r.pdf' },
      ]),
    );
    printer.event(result([{ type: 'file', mediaType: 'image/png', data: png }]));
    printer.end();
    expect(writes.join('')).toBe(
      [
        '    ↳ The page now:',
        '        file page.png (image/png, 70 B)',
        '        file https://cdn.example.com/r.pdf (application/pdf, by URL)',
        '    ↳ 1 file',
        '        file unnamed (image/png, 70 B)',
        '',
      ].join('\n'),
    );
    expect(writes.join('')).not.toContain(png.slice(0, 12));
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
