/**
 * Where a file stops being text: the read tool returns text only, so it finds the first byte that a
 * text file does not hold (a NUL or another control character but tab, line breaks and escape; a
 * byte that is not UTF-8) wherever it is, not only in the first kilobytes. A file of text followed
 * by binary data (an archive appended to a script, a log with a core dump) is cut there.
 */

/** Control characters a text file holds: tab, line feed, vertical tab, form feed, carriage return, escape. */
function isTextControl(byte: number): boolean {
  return (byte >= 0x09 && byte <= 0x0d) || byte === 0x1b;
}

/**
 * Scans a file's bytes chunk by chunk, in order, for the first one that is not text. UTF-8 is
 * checked as the WHATWG decoder does (no overlong forms, no surrogates, nothing past U+10FFFF), so
 * what it accepts decodes without a replacement character.
 */
export class TextScanner {
  /** Continuation bytes the character being read still needs. */
  #need = 0;
  /** Bounds of the next continuation byte (narrower after E0, ED, F0, F4). */
  #lower = 0x80;
  #upper = 0xbf;
  /** Where the character being read starts, in the file. */
  #start = 0;

  /**
   * Scans the next chunk, which starts at byte `offset` of the file. Returns the offset in the file
   * of the first byte that is not text (the start of its character, when a character is broken),
   * or -1 when the whole chunk is text.
   */
  scan(bytes: Uint8Array, offset: number): number {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (this.#need > 0) {
        if (byte < this.#lower || byte > this.#upper) return this.#start;
        this.#lower = 0x80;
        this.#upper = 0xbf;
        this.#need--;
        continue;
      }
      this.#start = offset + i;
      if (byte < 0x80) {
        if (byte < 0x20 && !isTextControl(byte)) return this.#start;
        continue;
      }
      if (byte >= 0xc2 && byte <= 0xdf) this.#need = 1;
      else if (byte >= 0xe0 && byte <= 0xef) {
        this.#need = 2;
        if (byte === 0xe0) this.#lower = 0xa0;
        if (byte === 0xed) this.#upper = 0x9f;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        this.#need = 3;
        if (byte === 0xf0) this.#lower = 0x90;
        if (byte === 0xf4) this.#upper = 0x8f;
      } else return this.#start;
    }
    return -1;
  }

  /** At the end of the file: where a character left unfinished starts, or -1. */
  end(): number {
    return this.#need > 0 ? this.#start : -1;
  }
}
