/**
 * Turning an MCP `tools/call` result into the text of a tool result: text content as it is, other
 * content as one short placeholder line each, `structuredContent` when there is no text.
 */

/** One content block of a `tools/call` result, as loosely as servers send it. */
interface Block {
  type?: unknown;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
}

/** The bytes a base64 string holds. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** `512 B`, `12 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function placeholder(kind: string, parts: (string | undefined)[]): string {
  const shown = parts.filter((p): p is string => p !== undefined);
  return shown.length > 0 ? `[${kind}: ${shown.join(', ')}]` : `[${kind}]`;
}

function blockText(block: Block): { text: string; isText: boolean } {
  switch (block.type) {
    case 'text':
      return { text: typeof block.text === 'string' ? block.text : '', isText: true };
    case 'image':
    case 'audio': {
      const size = typeof block.data === 'string' ? formatBytes(base64Bytes(block.data)) : undefined;
      return { text: placeholder(block.type, [str(block.mimeType), size]), isText: false };
    }
    case 'resource': {
      const r = block.resource ?? {};
      const size =
        typeof r.text === 'string'
          ? formatBytes(Buffer.byteLength(r.text))
          : typeof r.blob === 'string'
            ? formatBytes(base64Bytes(r.blob))
            : undefined;
      return { text: placeholder('resource', [str(r.uri), str(r.mimeType), size]), isText: false };
    }
    case 'resource_link':
      return {
        text: placeholder('resource link', [str(block.uri), str(block.name), str(block.mimeType)]),
        isText: false,
      };
    default:
      return {
        text: placeholder(`${typeof block.type === 'string' ? block.type : 'unknown'} content`, []),
        isText: false,
      };
  }
}

/**
 * The text a tool result carries for an MCP `tools/call` result: text blocks joined by newlines,
 * one placeholder line per other block (`[image: image/png, 12 KB]`), and the JSON of
 * `structuredContent` when the result has no text. A result with nothing in it reads `(no content)`.
 *
 * @example
 * formatToolResult({ content: [{ type: 'text', text: 'hi' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] });
 * // 'hi\n[image: image/png, 8 B]'
 */
export function formatToolResult(result: unknown): string {
  const r = (result ?? {}) as { content?: unknown; structuredContent?: unknown; toolResult?: unknown };
  const lines: string[] = [];
  let hasText = false;
  for (const block of Array.isArray(r.content) ? (r.content as Block[]) : []) {
    if (!block || typeof block !== 'object') continue;
    const { text, isText } = blockText(block);
    if (isText) {
      if (text === '') continue;
      hasText = true;
    }
    lines.push(text);
  }
  if (!hasText && r.structuredContent !== undefined && r.structuredContent !== null) {
    lines.unshift(JSON.stringify(r.structuredContent));
  }
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of `content`.
  if (lines.length === 0 && r.toolResult !== undefined) lines.push(JSON.stringify(r.toolResult));
  return lines.length > 0 ? lines.join('\n') : '(no content)';
}
