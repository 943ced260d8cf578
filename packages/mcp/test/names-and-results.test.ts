import { isToolResult, type ToolResult } from '@skilltree/core';
import { formatBytes, formatToolResult, toolNames, toToolResult } from '@skilltree/mcp';
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

describe('toToolResult', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const image = { type: 'image', data: PNG, mimeType: 'image/png' };

  test('without files it is the text formatToolResult gives', () => {
    const result = {
      content: [
        { type: 'text', text: 'hi' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
    };
    expect(toToolResult(result)).toBe(formatToolResult(result));
    expect(toToolResult(undefined)).toBe('(no content)');
  });

  test('images become file parts after the text, in order; structuredContent still stands in for missing text', () => {
    const out = toToolResult({ content: [image], structuredContent: { a: 1 } });
    expect(isToolResult(out)).toBe(true);
    expect((out as ToolResult).content).toEqual(['{"a":1}', { type: 'file', mediaType: 'image/png', data: PNG }]);
  });

  test('a text resource without a type is plain text; its name is the last segment of its URI', () => {
    const out = toToolResult({
      content: [{ type: 'resource', resource: { uri: 'mem://notes/today.md', text: '# Hi' } }],
    });
    expect((out as ToolResult).content).toEqual([
      { type: 'file', mediaType: 'text/plain', data: Buffer.from('# Hi').toString('base64'), filename: 'today.md' },
    ]);
  });

  test('bytes that are not what they claim stay a placeholder line', () => {
    const pdf = Buffer.from('%PDF-1.7\n%%EOF\n').toString('base64');
    expect(toToolResult({ content: [{ type: 'image', data: pdf, mimeType: 'image/png' }] })).toBe(
      '[image: image/png, 15 B]',
    );
  });

  test('past the files one result may carry (10 by default), the rest stay placeholder lines', () => {
    const out = toToolResult({ content: Array.from({ length: 12 }, () => image) }) as ToolResult;
    expect(out.content.filter((item) => typeof item !== 'string')).toHaveLength(10);
    expect(out.content[0]).toBe('[image: image/png, 70 B]\n[image: image/png, 70 B]');
  });
});
