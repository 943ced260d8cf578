import { Agent, createSession, estimateCost, type Model, type SessionOptions } from '@skilltree/core';
import { openaiTokenizer } from '@skilltree/models/tokenizer';

// A stand-in for a real adapter: it answers, and reports usage the way adapters do.
const model: Model = {
  name: 'openai:gpt-4.1',
  generate: async () => ({
    text: 'Noted.',
    toolCalls: [],
    usage: { inputTokens: 1_500, cacheReadTokens: 1_280, outputTokens: 40 },
  }),
};

async function windowStarts(options: SessionOptions): Promise<string> {
  const session = createSession(<Agent />, { model, maxTranscriptMessages: 10, ...options });
  const starts: number[] = [];
  for (let turn = 1; turn <= 14; turn++) {
    await session.send(`Question ${turn}: where is order A-${1000 + turn}?`);
    starts.push(session.view().window.start);
  }
  session.dispose();
  return starts.join(' ');
}

// Where each turn's window starts (index in the transcript), with a 10-message cap.
console.log('sliding:', await windowStarts({}));
console.log('stable: ', await windowStarts({ windowMode: 'stable' }));

// A token budget beside the message cap, counted exactly for an OpenAI model.
const session = createSession(<Agent />, {
  model,
  windowMode: 'stable',
  maxTranscriptTokens: 60,
  tokenizer: openaiTokenizer('gpt-4.1'),
});
for (let turn = 1; turn <= 6; turn++) await session.send(`Question ${turn}: where is order A-${1000 + turn}?`);
console.log('window with a 60-token budget:', session.request().messages.length, 'messages');
console.log('usage:', JSON.stringify(session.usage));
const cost = estimateCost(session.usage ?? {}, 'gpt-4.1');
console.log(`estimate: $${cost.total.toFixed(4)} (cache reads $${cost.cacheRead.toFixed(4)})`);
session.dispose();
