/**
 * The usage estimate (budgets' look-ahead, a silent provider's usage) is made incrementally: each
 * message and each tool schema is flattened once, and later requests reuse what was counted. These
 * tests hold it to the estimate made from scratch, over transcripts and tools that keep changing.
 */
import fc from 'fast-check';
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { estimateFileTokens } from '../src/files/files.js';
import {
  Agent,
  type Message,
  restoreSession,
  type ScriptedResponse,
  Skill,
  scriptedModel,
  Text,
  Tool,
} from '../src/index.js';
import { estimateRequestTokens, requestText } from '../src/request/usage-estimate.js';
import { estimateTokens } from '../src/transcript/window.js';
import type { FilePart, UserPart } from '../src/types/messages.js';
import type { ModelRequest, SystemNote, ToolSpec } from '../src/types/request.js';

/** A real 2×3 PNG header (IHDR): enough for the size reader. */
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 2, 0, 0, 0, 3, 8, 2, 0,
  0, 0, 0, 0, 0, 0,
]).toString('base64');

const FILES: Record<string, FilePart> = {
  png: { type: 'file', mediaType: 'image/png', data: PNG, filename: 'a.png' },
  image: { type: 'file', mediaType: 'image/jpeg', filename: 'remote.jpg' },
  pdf: { type: 'file', mediaType: 'application/pdf', data: Buffer.from('%PDF-1.7 x').toString('base64') },
  audio: { type: 'file', mediaType: 'audio/wav', data: Buffer.from('RIFF....WAVE').toString('base64') },
  text: { type: 'file', mediaType: 'text/plain', data: Buffer.from('hello, file').toString('base64') },
};

/**
 * The estimate from scratch: the request copied (so that nothing counted before is known), then
 * flattened whole, and its files counted one by one.
 */
function fromScratch(request: ModelRequest): number {
  const copy = structuredClone({ ...request });
  const items = copy.appendOnly?.items ?? copy.messages ?? [];
  let files = 0;
  for (const item of items) {
    if (item.role === 'system') continue;
    for (const part of item.content) if (part.type === 'file') files += estimateFileTokens(part);
  }
  return estimateTokens(requestText(copy)) + files;
}

const textArb = fc.string({ maxLength: 24 });
const fileArb = fc.constantFrom(...Object.keys(FILES));

/** One change to the conversation or to what is offered. */
const opArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), text: textArb, files: fc.array(fileArb, { maxLength: 2 }) }),
  fc.record({
    kind: fc.constant('assistant' as const),
    text: textArb,
    reasoning: fc.option(textArb, { nil: undefined }),
    calls: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    text: textArb,
    lines: fc.array(textArb, { maxLength: 2 }),
    file: fc.option(fileArb, { nil: undefined }),
  }),
  // A message replaced by a new version (as a layout that strips reasoning or describes files makes one).
  fc.record({ kind: fc.constant('copy' as const), at: fc.nat() }),
  // A message whose content is swapped for another (never done to a recorded one, but it must not mislead).
  fc.record({ kind: fc.constant('recontent' as const), at: fc.nat(), text: textArb }),
  // The offered tools change: specs come and go, a re-render makes new spec objects over the same schema.
  fc.record({
    kind: fc.constant('tools' as const),
    pick: fc.array(fc.nat({ max: 5 }), { maxLength: 6 }),
    fresh: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('context' as const), system: textArb, context: textArb, onSystem: fc.boolean() }),
  fc.record({ kind: fc.constant('window' as const), keep: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('note' as const), text: textArb, removed: fc.array(textArb, { maxLength: 2 }) }),
);

const SCHEMAS: Record<string, unknown>[] = [
  { type: 'object', properties: {} },
  { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } } },
];

function spec(i: number): ToolSpec {
  return { name: `tool_${i}`, description: `Tool ${i} — does “one” thing`, inputSchema: SCHEMAS[i % SCHEMAS.length] };
}

describe('usage estimate', () => {
  test('an estimate made incrementally equals the estimate made from scratch', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), fc.boolean(), (ops, appendOnly) => {
        const messages: Message[] = [];
        const notes: { after: number; note: SystemNote }[] = [];
        const pool = Array.from({ length: 6 }, (_, i) => spec(i));
        let tools: ToolSpec[] = pool.slice(0, 2);
        let system = 'You help.';
        let context = '<current_context>\n</current_context>';
        let onSystem = false;
        let keep = 20;
        let id = 0;
        for (const op of ops) {
          if (op.kind === 'user') {
            const content: UserPart[] = [{ type: 'text', text: op.text }, ...op.files.map((f) => FILES[f])];
            messages.push({ role: 'user', content });
          } else if (op.kind === 'assistant') {
            const toolCalls = Array.from({ length: op.calls }, () => ({
              id: `c${++id}`,
              name: 'tool_1',
              input: { id },
            }));
            messages.push({
              role: 'assistant',
              content: [
                ...(op.reasoning === undefined
                  ? []
                  : [
                      {
                        type: 'reasoning' as const,
                        provider: 'p',
                        model: 'm',
                        text: op.reasoning,
                        providerData: { signature: 'sig' },
                      },
                    ]),
                { type: 'text', text: op.text },
              ],
              ...(toolCalls.length > 0 ? { toolCalls } : {}),
            });
          } else if (op.kind === 'tool') {
            messages.push({
              role: 'tool',
              toolCallId: `c${id}`,
              name: 'tool_1',
              content: [
                { type: 'text', text: op.text },
                ...(op.lines.length > 0
                  ? [
                      {
                        type: 'context-changed' as const,
                        changes: op.lines.map((text) => ({ kind: 'line' as const, skill: 'agent', text })),
                      },
                    ]
                  : []),
                ...(op.file ? [FILES[op.file]] : []),
              ],
            });
          } else if (op.kind === 'copy' && messages.length > 0) {
            const at = op.at % messages.length;
            messages[at] = { ...messages[at], content: messages[at].content.slice(0, -1) } as Message;
          } else if (op.kind === 'recontent' && messages.length > 0) {
            const message = messages[op.at % messages.length] as { content: unknown[] };
            message.content = [...message.content, { type: 'text', text: op.text }];
          } else if (op.kind === 'tools') {
            const chosen = [...new Set(op.pick)].map((i) => (op.fresh ? { ...pool[i] } : pool[i]));
            tools = chosen;
          } else if (op.kind === 'context') {
            ({ system, context, onSystem } = op);
          } else if (op.kind === 'window') {
            keep = op.keep;
          } else if (op.kind === 'note') {
            const note: SystemNote = { role: 'system', text: op.text, addedTools: tools, removedTools: op.removed };
            notes.push({ after: messages.length - 1, note });
          }
          const request: ModelRequest = {
            system,
            context,
            messages: messages.slice(-keep),
            tools,
            contextPlacement: onSystem ? 'system' : 'end',
          };
          if (appendOnly) {
            const items: (Message | SystemNote)[] = notes.filter((n) => n.after < 0).map((n) => n.note);
            messages.forEach((message, i) => {
              items.push(message);
              for (const n of notes) if (n.after === i) items.push(n.note);
            });
            request.appendOnly = { system: 'First system.', tools: pool.slice(0, 3), items };
          }
          expect(estimateRequestTokens(request)).toBe(fromScratch(request));
          // Asked again (everything counted now), it says the same.
          expect(estimateRequestTokens(request)).toBe(fromScratch(request));
        }
      }),
      { numRuns: 200 },
    );
  });

  test('a hand-made request missing parts is estimated from what it has, as before', () => {
    const partial = {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    } as unknown as ModelRequest;
    expect(estimateRequestTokens(partial)).toBe(fromScratch(partial));
    expect(estimateRequestTokens({} as ModelRequest)).toBe(fromScratch({} as ModelRequest));
    const noSchema = { name: 'x', description: 'y' } as ToolSpec;
    const request = {
      system: 's',
      context: 'c',
      messages: [],
      tools: [noSchema],
      contextPlacement: 'end',
    } as ModelRequest;
    expect(estimateRequestTokens(request)).toBe(fromScratch(request));
  });

  function Counting({ name }: { name: string }) {
    const [n, setN] = useState(0);
    return (
      <>
        <Text>
          {name} called {n} times
        </Text>
        <Tool
          name={`${name}_count`}
          description={`Count ${name} (${n})`}
          input={z.object({ by: z.number().optional() })}
          run={() => {
            setN((c) => c + 1);
            return `counted ${name}`;
          }}
        />
        <Tool
          name={`${name}_look`}
          description="Look"
          input={z.object({ id: z.string() })}
          run={({ id }) => `saw ${id}`}
        />
      </>
    );
  }

  const agent = (
    <Agent>
      <Text>Customer: Ada</Text>
      {['alpha', 'beta', 'gamma'].map((name) => (
        <Skill key={name} name={name} description={`The ${name} skill`}>
          <Counting name={name} />
        </Skill>
      ))}
    </Agent>
  );

  test.each([
    ['classic', false],
    ['append-only', true],
  ])(
    "a session's requests (%s) are estimated as from scratch while skills load, re-render and the transcript grows",
    async (_, appendOnly) => {
      const transcript: Message[] = [];
      for (let i = 0; i < 30; i++) {
        transcript.push({
          role: 'user',
          content: [{ type: 'text', text: `question ${i}` }, ...(i % 7 === 0 ? [FILES.png] : [])],
        });
        transcript.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] });
      }
      let checked = 0;
      /** A model step that checks the request it is sent, then answers. */
      const step = (answer: ScriptedResponse) => (request: ModelRequest) => {
        expect(estimateRequestTokens(request)).toBe(fromScratch(request));
        checked++;
        return answer;
      };
      const names = ['alpha', 'beta', 'gamma', 'alpha'];
      const model = scriptedModel(
        names.flatMap((name, i) => [
          step({ toolCalls: [{ name: 'read_skill', input: { name } }], reasoning: 'load it' }),
          step({ toolCalls: [{ name: `${name}_count`, input: {} }] }),
          step({
            toolCalls: [{ name: `${name}_look`, input: { id: `A-${i}` } }],
            reasoning: { text: 'look', providerData: { signature: 's' } },
          }),
          step({ text: `done ${i}` }),
        ]),
        { appendOnly, accepts: { images: false } },
      );
      const session = restoreSession(
        agent,
        { version: 1, transcript, loadedSkills: [], stores: {} },
        { model, maxTranscriptMessages: 12 },
      );
      for (const [i, name] of names.entries()) {
        const files =
          i % 2 === 0 ? [{ data: FILES.png.data as string, mediaType: 'image/png', filename: 'p.png' }] : [];
        await session.send(`use ${name} ${i}`, { files });
        const request = session.request();
        expect(estimateRequestTokens(request)).toBe(fromScratch(request));
      }
      expect(checked).toBe(16);
      if (appendOnly) {
        // What the log says the model was told of each tool is unchanged: the key logs and snapshots keep.
        const told = session.snapshot().sent?.told.tools ?? {};
        const offered = session.request().tools;
        expect(Object.keys(told).sort()).toEqual(offered.map((t) => t.name).sort());
        for (const spec of offered) expect(told[spec.name]).toBe(JSON.stringify([spec.description, spec.inputSchema]));
      }
      session.dispose();
    },
  );
});
