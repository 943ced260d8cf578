/**
 * The same scripted conversation through every adapter, each against its own local server (or the
 * AI SDK mock), driven by createSession: every run yields the transcript the scripted model yields.
 */
import {
  Agent,
  createSession,
  Instructions,
  type Message,
  type Model,
  Skill,
  scriptedModel,
  textOf,
} from '@skilltree/core';
import type { ContextPlacement } from '@skilltree/core/provider';
import { CartSkill, cart } from '@skilltree/test-kit';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { aiSdk } from '../src/ai-sdk.js';
import { anthropic } from '../src/anthropic.js';
import { openai } from '../src/openai.js';
import { streamedOrNot } from './helpers/generate-only.js';
import { outputItems, responseEvents, responseObject } from './helpers/openai-wire.js';
import { json, sse, startServer, type TestServer } from './helpers/server.js';
import {
  anthropicEvents,
  anthropicMessage,
  openaiChunks,
  openaiCompletion,
  v3Parts,
  v3Result,
  type WireStep,
} from './helpers/wire.js';

function ShopAgent() {
  return (
    <Agent>
      <Instructions>You are a shop assistant.</Instructions>
      <Skill name="shopping" description="Find and buy products">
        <CartSkill />
      </Skill>
    </Agent>
  );
}

/** Two user turns; the model reads a skill, calls its tool, calls a tool that does not exist, sends bad JSON. */
const SCRIPT: WireStep[] = [
  { toolCalls: [{ id: 'call_1', name: 'read_skill', input: { name: 'shopping' } }] },
  {
    text: 'Adding the lamp.',
    toolCalls: [
      { id: 'call_2', name: 'add_to_cart', input: { sku: 'lamp' } },
      { id: 'call_3', name: 'checkout', input: {} },
    ],
  },
  { text: 'Added a lamp to your cart.' },
  { toolCalls: [{ id: 'call_4', name: 'add_to_cart', input: { sku: 'desk' } }] },
  { text: 'Done: lamp and desk.' },
];

interface Run {
  transcript: readonly Message[];
  texts: string[];
  steps: number[];
  cart: string[];
  /** Tool names the model was offered at each step. */
  toolsOffered: string[][];
}

async function converse(model: Model, contextPlacement: ContextPlacement, offered: () => string[][]): Promise<Run> {
  const session = createSession(<ShopAgent />, { model, contextPlacement });
  try {
    const first = await session.send('I need a lamp');
    const second = await session.send('And a desk, please');
    return {
      transcript: session.transcript,
      texts: [first.text, second.text],
      steps: [first.steps, second.steps],
      cart: session.store(cart).getState().items,
      toolsOffered: offered(),
    };
  } finally {
    session.dispose();
  }
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(): Promise<TestServer> {
  const s = await startServer();
  servers.push(s);
  return s;
}

type Adapter = (placement: ContextPlacement, stream: boolean) => Promise<Run>;

const adapters: Record<string, Adapter> = {
  async anthropic(placement, stream) {
    const s = await server();
    s.queue(...SCRIPT.map((step) => (stream ? sse(anthropicEvents(step)) : json(200, anthropicMessage(step)))));
    const model = anthropic({ model: 'claude-test', apiKey: 'k', baseURL: s.url });
    return converse(streamedOrNot(model, stream), placement, () =>
      s.requests.map((r) => r.body.tools.map((t: { name: string }) => t.name)),
    );
  },
  async openai(placement, stream) {
    const s = await server();
    s.queue(...SCRIPT.map((step) => (stream ? sse(openaiChunks(step)) : json(200, openaiCompletion(step)))));
    const model = openai({ model: 'gpt-test', api: 'chat', apiKey: 'k', baseURL: `${s.url}/v1` });
    return converse(streamedOrNot(model, stream), placement, () =>
      s.requests.map((r) => r.body.tools.map((t: { function: { name: string } }) => t.function.name)),
    );
  },
  async 'openai (responses)'(placement, stream) {
    const s = await server();
    s.queue(
      ...SCRIPT.map((step) =>
        stream ? sse(responseEvents(outputItems(step))) : json(200, responseObject(outputItems(step))),
      ),
    );
    const model = openai({ model: 'gpt-test', apiKey: 'k', baseURL: `${s.url}/v1` });
    return converse(streamedOrNot(model, stream), placement, () =>
      s.requests.map((r) => r.body.tools.map((t: { name: string }) => t.name)),
    );
  },
  async 'ai-sdk'(placement, stream) {
    let i = 0;
    const mock = new MockLanguageModelV3({
      doGenerate: async () => v3Result(SCRIPT[i++]),
      doStream: async () => ({ stream: convertArrayToReadableStream(v3Parts(SCRIPT[i++])) }),
    });
    const model = aiSdk(mock);
    return converse(streamedOrNot(model, stream), placement, () =>
      [...mock.doGenerateCalls, ...mock.doStreamCalls].map((c) => (c.tools ?? []).map((t) => t.name)),
    );
  },
};

async function baseline(placement: ContextPlacement): Promise<Run> {
  const requests: string[][] = [];
  const model = scriptedModel(
    SCRIPT.map((step) => (req) => {
      requests.push(req.tools.map((t) => t.name));
      return step;
    }),
  );
  return converse(model, placement, () => requests);
}

describe.each(['end', 'system'] as const)(
  "contract: every adapter yields the same transcript (contextPlacement '%s')",
  (placement) => {
    it('the scripted baseline behaves as the script says', async () => {
      const run = await baseline(placement);
      expect(run.texts).toEqual(['Added a lamp to your cart.', 'Done: lamp and desk.']);
      expect(run.steps).toEqual([3, 2]);
      expect(run.cart).toEqual(['lamp', 'desk']);
      expect(run.toolsOffered).toEqual([
        ['read_skill'],
        ['read_skill', 'add_to_cart'],
        ['read_skill', 'add_to_cart'],
        ['read_skill', 'add_to_cart'],
        ['read_skill', 'add_to_cart'],
      ]);
      const refusal = run.transcript.find((m) => m.role === 'tool' && m.toolCallId === 'call_3');
      expect(refusal).toMatchObject({ role: 'tool', isError: true });
      expect(textOf(refusal as Message)).toMatch(/^Unknown tool/);
    });

    for (const [name, adapter] of Object.entries(adapters)) {
      for (const stream of [true, false]) {
        it(`${name} (${stream ? 'stream' : 'generate'})`, async () => {
          const expected = await baseline(placement);
          const run = await adapter(placement, stream);
          expect(run).toEqual(expected);
        });
      }
    }
  },
);

describe('contract: tool arguments that are not valid JSON', () => {
  it('become an error result through openai, and the conversation goes on', async () => {
    const s = await server();
    s.queue(
      sse(openaiChunks({ toolCalls: [{ id: 'call_1', name: 'read_skill', input: { name: 'shopping' } }] })),
      sse(openaiChunks({ toolCalls: [{ id: 'call_2', name: 'add_to_cart', input: '{"sku": "la' }] })),
      sse(openaiChunks({ text: 'Sorry, let me retry.' })),
    );
    const session = createSession(<ShopAgent />, {
      model: openai({ model: 'gpt-test', api: 'chat', apiKey: 'k', baseURL: `${s.url}/v1` }),
    });
    const turn = await session.send('hi');
    expect(turn.text).toBe('Sorry, let me retry.');
    const result = session.transcript.find((m) => m.role === 'tool' && m.toolCallId === 'call_2');
    expect(result).toMatchObject({ role: 'tool', name: 'add_to_cart', isError: true });
    expect(textOf(result as Message)).toMatch(
      /^Invalid input for tool "add_to_cart": the arguments are not valid JSON/,
    );
    expect(session.store(cart).getState().items).toEqual([]);
    // The next request sends the raw arguments back exactly as the model wrote them.
    const sent = s.requests[2].body.messages.find((m: { role: string; tool_calls?: unknown[] }) =>
      JSON.stringify(m.tool_calls ?? []).includes('call_2'),
    );
    expect(sent.tool_calls[0].function.arguments).toBe('{"sku": "la');
    session.dispose();
  });
});
