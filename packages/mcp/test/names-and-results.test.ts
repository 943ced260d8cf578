import { formatBytes, formatToolResult, toolNames } from '@skilltree/mcp';
import { describe, expect, test } from 'vitest';

describe('toolNames', () => {
  test('names match ^[a-zA-Z0-9_-]{1,64}$: other characters become _, long names are cut', () => {
    const names = toolNames(['a.b/c d', 'ok-name_1', 'é', '', 'y'.repeat(70)]);
    expect([...names.values()]).toEqual(['a_b_c_d', 'ok-name_1', '_', 'tool', 'y'.repeat(64)]);
    for (const name of names.values()) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  test('the prefix is applied verbatim, then sanitised like the rest', () => {
    expect([...toolNames(['search'], 'gh_').values()]).toEqual(['gh_search']);
    expect([...toolNames(['search'], 'my server:').values()]).toEqual(['my_server_search']);
  });

  test('collisions get _2, _3… and stay within 64 characters', () => {
    const long = 'z'.repeat(64);
    const names = toolNames(['a.b', 'a/b', 'a b', `${long}.1`, `${long}.2`]);
    expect([...names.values()]).toEqual(['a_b', 'a_b_2', 'a_b_3', long, `${'z'.repeat(62)}_2`]);
  });
});

describe('formatToolResult', () => {
  test('text blocks are joined by newlines; placeholders keep their place', () => {
    expect(
      formatToolResult({
        content: [
          { type: 'text', text: 'one' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\n[image: image/png, 8 B]\ntwo');
  });

  test('structuredContent stands in only when there is no text', () => {
    expect(formatToolResult({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } })).toBe('hi');
    expect(
      formatToolResult({ content: [{ type: 'image', data: '', mimeType: 'image/gif' }], structuredContent: { a: 1 } }),
    ).toBe('{"a":1}\n[image: image/gif, 0 B]');
  });

  test('unknown content types, old-protocol toolResult and empty results still read as text', () => {
    expect(formatToolResult({ content: [{ type: 'video', uri: 'x' }] })).toBe('[video content]');
    expect(formatToolResult({ toolResult: { ok: true } })).toBe('{"ok":true}');
    expect(formatToolResult({ content: [] })).toBe('(no content)');
    expect(formatToolResult(undefined)).toBe('(no content)');
  });

  test('sizes read as B, KB and MB', () => {
    expect([formatBytes(0), formatBytes(1023), formatBytes(12 * 1024), formatBytes(3.4 * 1024 * 1024)]).toEqual([
      '0 B',
      '1023 B',
      '12 KB',
      '3.4 MB',
    ]);
  });
});
