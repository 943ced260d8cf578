import { type ModelRequest, printRequest, textContent } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { colorEnabled, compact, createStyle, formatRequest, formatTranscript } from '../src/kit/print.js';

const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true, isTTY: false };

const request: ModelRequest = {
  system: 'Be kind.',
  context: '<current_context>\nMood: calm\n</current_context>',
  tools: [
    {
      name: 'read_skill',
      description: 'Load a skill',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  ],
  messages: [
    { role: 'user', content: textContent('hi') },
    { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'read_skill', input: { name: 'x' } }] },
    {
      role: 'tool',
      toolCallId: 'c1',
      name: 'read_skill',
      content: textContent('Unknown skill'),
      isError: true,
      errorKind: 'unknown-skill',
    },
  ],
  contextPlacement: 'end',
};

/** `text` without its ANSI color codes (`ESC [ n m`). */
const uncolored = (text: string) =>
  text
    .split('\u001b[')
    .map((part, i) => (i === 0 ? part : part.replace(/^\d+m/, '')))
    .join('');

describe('colors', () => {
  it('are on for terminals only, off with NO_COLOR, forced with FORCE_COLOR', () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(createStyle(pipe, {}).dim('x')).toBe('x');
    expect(createStyle(tty, {}).dim('x')).toBe('\u001b[2mx\u001b[22m');
  });
});

describe('formatting', () => {
  it('compacts text to one line', () => {
    expect(compact('a\n  b\tc')).toBe('a b c');
    expect(compact('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it("prints the request with core's printer: without colors, the very text the testing package prints", () => {
    const text = formatRequest(request, createStyle(pipe, {}), 5);
    expect(text).toBe(printRequest(request, { maxLength: Number.POSITIVE_INFINITY, transcriptLength: 5 }));
    expect(text).toContain('── messages (3 of 5)');
    expect(text).toContain('read_skill({ name: string }) — Load a skill');
    expect(text).toContain('→ read_skill({"name":"x"}) #c1');
    expect(text).toContain('[tool read_skill #c1 error]');
  });

  it('colors headings, roles, calls and error results on a terminal, and only adds colors', () => {
    const text = formatRequest(request, createStyle(tty, {}), 5);
    expect(uncolored(text)).toBe(formatRequest(request, createStyle(pipe, {}), 5));
    expect(text).toContain('\u001b[1m\u001b[36m── system');
    expect(text).toContain('\u001b[1m\u001b[32m[user]');
    expect(text).toContain('\u001b[33m→ read_skill');
    expect(text).toContain('\u001b[1m\u001b[31m[tool read_skill #c1 error]');
  });

  it('never cuts the request: a terminal scrolls', () => {
    const long = { ...request, system: 'x'.repeat(20_000) };
    expect(formatRequest(long, createStyle(pipe, {}))).not.toContain('more characters');
  });

  it('numbers the whole transcript', () => {
    expect(formatTranscript(request.messages, createStyle(pipe, {}))).toMatch(/^#1 \[user\]\n {2}hi\n#2 \[assistant\]/);
  });
});
