/**
 * Message parts on the wire: what each part becomes in a Messages API body, and that the text a model
 * reads is the text it read before messages had parts.
 */
import type { Message, ModelRequest, ReasoningPart } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { anthropic, anthropicRequestBody } from '../src/anthropic.js';
import { contentBlocks, fileBlock } from '../src/anthropic-blocks.js';
import { text } from './helpers/request.js';

const MODEL = 'claude-opus-5-5';
const thought = (over: Partial<ReasoningPart> = {}): ReasoningPart => ({
  type: 'reasoning',
  provider: 'anthropic',
  model: MODEL,
  text: 'The user wants a lamp.',
  providerData: { signature: 'sig-1' },
  ...over,
});

function body(messages: Message[], model = MODEL) {
  const req: ModelRequest = { system: 'S', context: '', contextPlacement: 'system', tools: [], messages };
  return anthropicRequestBody(req, { model, cache: false });
}

describe('reasoning parts', () => {
  it('a thinking block goes back byte-exact, before the text and the tool calls, in the order produced', () => {
    const messages: Message[] = [
      { role: 'user', content: text('lamp?') },
      {
        role: 'assistant',
        content: [
          thought(),
          { type: 'text', text: 'Looking.' },
          thought({ text: '', providerData: { signature: 'sig-2' } }),
        ],
        toolCalls: [{ id: 't1', name: 'search', input: { q: 'lamp' } }],
      },
      { role: 'tool', toolCallId: 't1', name: 'search', content: text('3 lamps') },
    ];
    expect(body(messages).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants a lamp.', signature: 'sig-1' },
        { type: 'text', text: 'Looking.' },
        // Empty thinking is a whole block: its signature carries the reasoning.
        { type: 'thinking', thinking: '', signature: 'sig-2' },
        { type: 'tool_use', id: 't1', name: 'search', input: { q: 'lamp' } },
      ],
    });
  });

  it('redacted reasoning goes back as redacted_thinking with its data', () => {
    const messages: Message[] = [
      { role: 'user', content: text('x') },
      { role: 'assistant', content: [thought({ text: '', providerData: { redactedData: 'EuYBCkQ…' } })] },
      { role: 'user', content: text('y') },
    ];
    expect(body(messages).messages[1].content).toEqual([{ type: 'redacted_thinking', data: 'EuYBCkQ…' }]);
  });

  it('reasoning of another provider, another model or without a signature is not replayed', () => {
    const messages: Message[] = [
      { role: 'user', content: text('x') },
      {
        role: 'assistant',
        content: [
          thought({ provider: 'openai', providerData: { encryptedContent: 'gAAA' } }),
          thought({ model: 'claude-fable-5-2' }),
          thought({ model: '' }),
          thought({ providerData: undefined }),
          { type: 'text', text: 'Hi.' },
        ],
      },
      { role: 'user', content: text('y') },
    ];
    expect(body(messages).messages[1].content).toEqual([{ type: 'text', text: 'Hi.' }]);
    // The same parts go back to the model that produced them.
    expect(body(messages, 'claude-fable-5-2').messages[1].content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user wants a lamp.',
      signature: 'sig-1',
    });
  });
});

describe('context-changed parts: the model reads what it read before', () => {
  it('the lines follow the text of a tool result, each on its own line, as one string', () => {
    const messages: Message[] = [
      { role: 'user', content: text('go') },
      { role: 'assistant', content: [], toolCalls: [{ id: 't1', name: 'read_skill', input: { name: 'a' } }] },
      {
        role: 'tool',
        toolCallId: 't1',
        name: 'read_skill',
        content: [
          { type: 'text', text: 'Loaded skill "a".' },
          {
            type: 'context-changed',
            changes: [
              { kind: 'loaded', skill: 'a' },
              { kind: 'line', skill: 'notes', text: 'milk' },
            ],
          },
        ],
      },
    ];
    expect(body(messages).messages[2].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: 'Loaded skill "a".\ncontextChanged a loaded\ncontextChanged notes added: milk',
      },
    ]);
  });

  it('a user message with only lines reads the lines; empty text is left out', () => {
    expect(contentBlocks([{ type: 'context-changed', changes: [{ kind: 'unloaded', skill: 'b' }] }])).toEqual([
      { type: 'text', text: 'contextChanged b unloaded' },
    ]);
    expect(
      contentBlocks([
        { type: 'text', text: 'hi ' },
        { type: 'text', text: 'there' },
      ]),
    ).toEqual([{ type: 'text', text: 'hi there' }]);
    expect(contentBlocks([{ type: 'text', text: '' }])).toEqual([]);
  });
});

describe('file parts', () => {
  const png = { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' } as const;
  const pdf = {
    type: 'file',
    mediaType: 'application/pdf',
    url: 'https://example.com/a.pdf',
    filename: 'a.pdf',
  } as const;

  it('images and PDFs become image and document blocks, by bytes or by URL (a data: URL as bytes)', () => {
    expect(fileBlock(png)).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
    });
    expect(fileBlock({ type: 'file', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg' })).toEqual({
      type: 'image',
      source: { type: 'url', url: 'https://example.com/a.jpg' },
    });
    expect(fileBlock({ type: 'file', mediaType: 'image/gif', url: 'data:image/gif;base64,R0lGOD==' })).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/gif', data: 'R0lGOD==' },
    });
    expect(fileBlock(pdf)).toEqual({
      type: 'document',
      source: { type: 'url', url: 'https://example.com/a.pdf' },
      title: 'a.pdf',
    });
    expect(fileBlock({ type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=' })).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
    });
  });

  it('plain text is a text document; a type the API does not read is named, as textOf names it', () => {
    const notes = Buffer.from('milk, eggs').toString('base64');
    expect(fileBlock({ type: 'file', mediaType: 'text/plain', data: notes, filename: 'list.txt' })).toEqual({
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'milk, eggs' },
      title: 'list.txt',
    });
    expect(fileBlock({ type: 'file', mediaType: 'application/zip', data: 'UEsDBA==', filename: 'a.zip' })).toEqual({
      type: 'text',
      text: '[file: a.zip]',
    });
  });

  it('files keep their place among the text of a user message; lines come last', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          png,
          { type: 'context-changed', changes: [{ kind: 'line', skill: 'cart', text: 'Cart: 1 item' }] },
        ],
      },
    ];
    expect(body(messages).messages[0].content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: 'contextChanged cart added: Cart: 1 item' },
    ]);
  });

  it('a tool result with files holds blocks inside its tool_result, with is_error from isError', () => {
    const messages: Message[] = [
      { role: 'user', content: text('scan it') },
      { role: 'assistant', content: [], toolCalls: [{ id: 't1', name: 'scan', input: {} }] },
      {
        role: 'tool',
        toolCallId: 't1',
        name: 'scan',
        content: [{ type: 'text', text: 'Scanned:' }, pdf],
        isError: true,
        errorKind: 'threw',
      },
    ];
    expect(body(messages).messages[2].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: [
          { type: 'text', text: 'Scanned:' },
          { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' }, title: 'a.pdf' },
        ],
        is_error: true,
      },
    ]);
  });
});

describe("Anthropic's file limits are checked before sending", () => {
  it('an image over 5 MB or a PDF over 32 MB fails before the request, naming the file, its size and the limit', () => {
    const big = (mb: number) => 'A'.repeat(Math.ceil((mb * 1024 * 1024 * 4) / 3));
    expect(() => fileBlock({ type: 'file', mediaType: 'image/png', data: big(6), filename: 'huge.png' })).toThrow(
      /anthropic: \[file: huge\.png\] is \d+ bytes; Anthropic takes at most 5242880 bytes per image\./,
    );
    expect(() => fileBlock({ type: 'file', mediaType: 'application/pdf', data: big(33) })).toThrow(
      /at most 33554432 bytes per PDF/,
    );
    // Within the limits, the block is built.
    expect(fileBlock({ type: 'file', mediaType: 'image/png', data: big(4) })).toMatchObject({ type: 'image' });
  });
});

describe('Anthropic takes no audio, and only JPEG, PNG, GIF and WebP images', () => {
  it('an audio file or a TIFF is described in a text block, never sent to get a 400', () => {
    expect(fileBlock({ type: 'file', mediaType: 'audio/wav', data: 'UklGRg==', filename: 'note.wav' })).toEqual({
      type: 'text',
      text: '[audio note.wav, audio/wav, 4 B: Anthropic takes no audio]',
    });
    expect(fileBlock({ type: 'file', mediaType: 'image/tiff', data: 'SUkqAA==' })).toEqual({
      type: 'text',
      text: '[image, image/tiff, 4 B: Anthropic takes JPEG, PNG, GIF and WebP images only]',
    });
  });

  it('the adapter says so in accepts: images and PDFs, no audio', () => {
    expect(anthropic({ model: 'claude-sonnet-5', apiKey: 'k' }).accepts).toEqual({
      images: true,
      pdf: true,
      audio: false,
    });
  });
});
