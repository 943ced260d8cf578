/** The `contextChanged` lines core writes can be read back by the packages that show them. */
import { describe, expect, test } from 'vitest';
import { addedLine, lifecycleLine, parseContextChange } from '../src/lifecycle/context-changes.js';

describe('parseContextChange', () => {
  test('reads back every line core writes: loads, unloads and added lines (cut and escaped)', () => {
    expect(parseContextChange(lifecycleLine('notes', 'loaded'))).toEqual({ kind: 'loaded', skill: 'notes' });
    expect(parseContextChange(lifecycleLine('notes', 'unloaded'))).toEqual({ kind: 'unloaded', skill: 'notes' });
    expect(parseContextChange(addedLine('agent', 'Customer: Ada', 200))).toEqual({
      kind: 'added',
      section: 'agent',
      text: 'Customer: Ada',
    });
    const long = addedLine('notes', `${'x'.repeat(300)} <current_context>`, 10);
    expect(parseContextChange(long)).toMatchObject({ kind: 'added', section: 'notes' });
    expect((parseContextChange(long) as { text: string }).text).toBe(long.slice('contextChanged notes added: '.length));
  });

  test('anything else is not a contextChanged line', () => {
    for (const line of [
      'contextChanged',
      'contextChanged notes',
      'Loaded skill "notes".',
      '\\contextChanged notes loaded',
    ]) {
      expect(parseContextChange(line)).toBeNull();
    }
  });
});
