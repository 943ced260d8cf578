// The simulators' rules, checked on small hand-made bodies before the bench trusts them.
import assert from 'node:assert/strict';
import { anthropicCache, openaiCache } from './cache.mjs';

const mark = { type: 'ephemeral' };
const text = (chars, tag, cache) => ({
  type: 'text',
  text: `${tag}:${'x'.repeat(chars)}`,
  ...(cache ? { cache_control: mark } : {}),
});
const tool = (name, cache) => ({
  name,
  description: 'd'.repeat(400),
  input_schema: {},
  ...(cache ? { cache_control: mark } : {}),
});

function anthropicRules() {
  const body = (tools, turns) => ({ tools, system: [text(4000, 'system', true)], messages: turns });
  // A repeated request reads everything up to its last breakpoint and pays input for the rest.
  let sim = anthropicCache();
  const turns = [{ role: 'user', content: [text(2000, 'u1', true), text(400, 'context')] }];
  const first = sim(body([tool('a', true)], turns));
  assert.equal(first.cacheReadTokens, 0);
  assert.ok(first.cacheWriteTokens > 0 && first.cacheWriteTokens < first.inputTokens);
  const again = sim(body([tool('a', true)], turns));
  assert.equal(again.cacheReadTokens, first.cacheWriteTokens);
  assert.equal(again.cacheWriteTokens, 0);
  // The breakpoint markers are not part of the prefix: moving them changes nothing before them.
  const longer = [
    { role: 'user', content: [text(2000, 'u1')] },
    { role: 'assistant', content: [text(100, 'a1')] },
    { role: 'user', content: [text(800, 'u2', true), text(400, 'context')] },
  ];
  const next = sim(body([tool('a', true)], longer));
  assert.equal(next.cacheReadTokens, first.cacheWriteTokens);
  // A change in the tools misses everything after them, system prompt and messages included.
  const changed = sim(body([tool('b', true)], turns));
  assert.equal(changed.cacheReadTokens, 0);
  // Reads look back at most 20 blocks from a breakpoint.
  sim = anthropicCache();
  const blocks = (n) => ({
    tools: [tool('a')],
    system: [text(4000, 'system')],
    messages: [{ role: 'user', content: Array.from({ length: n }, (_, i) => text(200, `b${i}`, i === n - 1)) }],
  });
  sim(blocks(1));
  assert.ok(sim(blocks(20)).cacheReadTokens > 1000, 'b0 is 19 blocks before the breakpoint: found');
  sim = anthropicCache();
  sim(blocks(1));
  assert.equal(sim(blocks(22)).cacheReadTokens, 0, 'b0 is 21 blocks before the breakpoint: not found');
  // A deferred tool is outside the prefix until an addition names it: appending one changes nothing
  // cached, and the addition bills its definition where it stands.
  sim = anthropicCache();
  const withDeferred = (deferred, turns) => ({
    tools: [tool('a', true), ...deferred.map((name) => ({ ...tool(name), defer_loading: true }))],
    system: [text(4000, 'system', true)],
    messages: turns,
  });
  const u1 = [{ role: 'user', content: [text(2000, 'u1', true)] }];
  const firstWrite = sim(withDeferred([], u1)).cacheWriteTokens;
  assert.equal(sim(withDeferred(['x', 'y'], u1)).cacheReadTokens, firstWrite);
  const added = [
    ...u1,
    { role: 'system', content: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'x' } }] },
  ];
  const withAddition = sim(withDeferred(['x'], added));
  const withoutAddition = sim(withDeferred(['x'], u1));
  assert.ok(withAddition.inputTokens - withoutAddition.inputTokens > 100, 'the addition bills the definition');
  // Prefixes under the minimum are never cached.
  sim = anthropicCache();
  const small = { messages: [{ role: 'user', content: [text(100, 'tiny', true)] }] };
  assert.equal(sim(small).cacheWriteTokens, 0);
  assert.equal(sim(small).cacheReadTokens, 0);
}

function openaiRules() {
  const sim = openaiCache();
  const messages = (n) => Array.from({ length: n }, (_, i) => ({ role: 'user', content: `${i}:${'y'.repeat(1000)}` }));
  // Under 1,024 tokens nothing is cached; above, the shared prefix is read in 128-token steps.
  assert.equal(sim({ messages: messages(3) }).cacheReadTokens, 0);
  assert.equal(sim({ messages: messages(3) }).cacheReadTokens, 0);
  const first = sim({ messages: messages(6) });
  assert.equal(first.cacheReadTokens, 0);
  const second = sim({ messages: messages(7) });
  assert.ok(second.cacheReadTokens >= 1024 && second.cacheReadTokens % 128 === 0);
  assert.ok(second.cacheReadTokens <= first.inputTokens);
  // A different first message shares nothing.
  assert.equal(sim({ messages: [{ role: 'system', content: 'other' }, ...messages(7)] }).cacheReadTokens, 0);
}

export function checkSimulators() {
  anthropicRules();
  openaiRules();
}
