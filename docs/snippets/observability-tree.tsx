import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Agent, createSession, Instructions, Skill, scriptedModel, Tool } from '@skilltree/core';
import { z } from 'zod';

// The SDK with an exporter that keeps spans in memory (in production: OTLP, see the set-up above).
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);

const ShopAgent = () => (
  <Agent maxLoadedSkills={1}>
    <Instructions>You run a shop.</Instructions>
    <Skill name="shopping" description="Find and buy products">
      <Tool name="add_to_cart" description="Add an item" input={z.object({ sku: z.string() })} run={() => 'added'} />
      <Tool
        name="pay"
        description="Pay"
        run={() => {
          throw new Error('card declined');
        }}
      />
    </Skill>
    <Skill name="refunds" description="Refund an order">
      <Tool name="refund" description="Refund" input={z.object({ order: z.string() })} run={() => 'refunded'} />
    </Skill>
  </Agent>
);

const session = createSession(<ShopAgent />, {
  model: scriptedModel([
    { toolCalls: [{ id: 'c1', name: 'read_skill', input: { name: 'shopping' } }] },
    {
      toolCalls: [
        { id: 'c2', name: 'add_to_cart', input: { sku: 'lamp' } },
        { id: 'c3', name: 'pay' },
      ],
    },
    { toolCalls: [{ id: 'c4', name: 'read_skill', input: { name: 'refunds' } }] },
    { text: 'The lamp is in your cart, but the payment failed.' },
  ]),
  telemetry: { agentName: 'shop', conversationId: 'chat-42' },
});
await session.send('Buy a lamp');

// The exported spans as a tree: each span's name and status, then the attributes it adds to those
// every span of the session has.
const spans = exporter.getFinishedSpans();
const common = new Set(['gen_ai.conversation.id', 'skilltree.session.id']);
function print(span: ReadableSpan, depth: number): void {
  const indent = '  '.repeat(depth);
  const status = span.status.code === 2 ? `  [ERROR: ${span.status.message}]` : '';
  const own = Object.fromEntries(Object.entries(span.attributes).filter(([key]) => !common.has(key)));
  console.log(`${indent}${span.name}${status}\n${indent}  ${JSON.stringify(own)}`);
  const children = spans
    .filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  for (const child of children) print(child, depth + 1);
}
const root = spans.find((s) => s.name === 'invoke_agent shop') as ReadableSpan;
console.log(
  `on every span: ${JSON.stringify({ 'gen_ai.conversation.id': 'chat-42', 'skilltree.session.id': 'chat-42' })}`,
);
print(root, 0);
await provider.shutdown();
trace.disable();
