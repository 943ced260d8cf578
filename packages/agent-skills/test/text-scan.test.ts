/**
 * The text check of the read tool: a byte sequence is text exactly when it decodes as UTF-8
 * without a replacement character and holds no control character but tab, line breaks and escape,
 * however it is split into chunks.
 */
import { describe, expect, test } from 'vitest';
import { TextScanner } from '../src/text-scan.js';

/** The offset of the first byte that is not text, reading `bytes` in chunks of `size`. */
function firstNotText(bytes: number[], size: number): number {
  const scanner = new TextScanner();
  for (let at = 0; at < bytes.length; at += size) {
    const bad = scanner.scan(Uint8Array.from(bytes.slice(at, at + size)), at);
    if (bad !== -1) return bad;
  }
  return scanner.end();
}

const utf8 = (text: string) => [...Buffer.from(text, 'utf8')];

describe('TextScanner', () => {
  test('UTF-8 text of every width, split anywhere, is text', () => {
    const bytes = utf8('a\té\r\n日本語 😀 \u001b[0m\f\v𐍈');
    for (const size of [1, 2, 3, 5, bytes.length]) expect(firstNotText(bytes, size), `chunks of ${size}`).toBe(-1);
  });

  test('what a fatal UTF-8 decoder refuses is not text, and the offset is where its character starts', () => {
    const cases: [number[], number][] = [
      [[0x61, 0xff], 1], // never a UTF-8 byte
      [[0x61, 0xc0, 0xaf], 1], // overlong
      [[0x61, 0xe0, 0x80, 0xaf], 1], // overlong, three bytes
      [[0x61, 0xed, 0xa0, 0x80], 1], // a surrogate
      [[0x61, 0xf4, 0x90, 0x80, 0x80], 1], // past U+10FFFF
      [[0x61, 0x62, 0xe6, 0x97, 0x61], 2], // a character cut short
      [[0x61, 0x80], 1], // a lone continuation byte
    ];
    for (const [bytes, at] of cases) {
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes))).toThrow();
      for (const size of [1, 2, bytes.length]) expect(firstNotText(bytes, size), JSON.stringify(bytes)).toBe(at);
    }
  });

  test('NUL and the other control characters are not text; a character left unfinished at the end is not either', () => {
    expect(firstNotText(utf8('abc\u0000'), 2)).toBe(3);
    expect(firstNotText(utf8('ab\u0007'), 3)).toBe(2);
    expect(firstNotText(utf8('ab\u007f'), 3)).toBe(-1);
    expect(firstNotText([0x61, 0xe6, 0x97], 3)).toBe(1);
  });
});
