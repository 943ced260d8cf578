/** What the file tests share: PNG bytes of a given size, and an agent whose tool returns a file. */
import { z } from 'zod';
import { Agent, type FileInput, Tool, toolResult } from '../src/index.js';

/**
 * A PNG header (signature, then an IHDR that says `width` × `height`; `0` leaves it unset) and
 * `extra` bytes after it: 33 + `extra` bytes in all, enough for the sniffer and the size reader.
 */
export function png({ extra = 16, width = 2, height = 3 }: { extra?: number; width?: number; height?: number } = {}) {
  const bytes = new Uint8Array(33 + extra);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}

/** An agent with one tool, `name` (default `screenshot`), that returns `The page:` and the file `bytes`. */
export function ScreenshotAgent({
  bytes,
  name = 'screenshot',
  description = 'Take one',
  filename,
}: {
  bytes: Uint8Array;
  name?: string;
  description?: string;
  filename?: string;
}) {
  const file: FileInput = filename === undefined ? { data: bytes } : { data: bytes, filename };
  return (
    <Agent>
      <Tool name={name} description={description} input={z.object({})} run={() => toolResult('The page:', file)} />
    </Agent>
  );
}
