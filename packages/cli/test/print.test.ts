import type { ModelRequest } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { colorEnabled, compact, createStyle, formatRequest, splitContextChanges } from '../src/print.js';

const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true, isTTY: false };

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

  it('splits contextChanged lines from a tool result', () => {
    expect(splitContextChanges('done\ncontextChanged shop loaded')).toEqual({
      text: 'done',
      changes: ['contextChanged shop loaded'],
    });
  });

  it('prints every part of the request', () => {
    const request: ModelRequest = {
      system: 'Be kind.',
      context: '<current_context>\nMood: calm\n</current_context>',
      tools: [{ name: 'read_skill', description: 'Load a skill', inputSchema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_skill', input: { name: 'x' } }] },
        { role: 'tool', toolCallId: 'c1', name: 'read_skill', content: 'Unknown skill', isError: true },
      ],
      contextPlacement: 'end',
    };
    const text = formatRequest(request, createStyle(pipe, {}), 5);
    expect(text).toContain('── system');
    expect(text).toContain('Be kind.');
    expect(text).toContain('Mood: calm');
    expect(text).toContain('── tools (1)');
    expect(text).toContain('read_skill — Load a skill');
    expect(text).toContain('── messages (3 of 5 in the transcript)');
    expect(text).toContain('→ read_skill({"name":"x"})  [c1]');
    expect(text).toContain('tool read_skill [c1] error');
  });
});
