import { createSession, scriptedModel, textOf } from '@skilltree/core';
import { TravelAgent } from './travel-agent.js';

const session = createSession(<TravelAgent />, {
  model: scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: 'hotels' } }] },
    { toolCalls: [{ name: 'search_hotels', input: { city: 'Oslo' } }] },
    { text: 'Hotel Nord: 95 EUR a night.' },
  ]),
});

for await (const event of session.stream('A hotel in Oslo, please')) {
  switch (event.type) {
    case 'request':
      console.log(`request ${event.step}: tools ${event.request.tools.map((t) => t.name).join(', ')}`);
      break;
    case 'text-delta':
      console.log(`text: ${event.text}`);
      break;
    case 'tool-result':
      console.log(`result of ${event.message.name}: ${textOf(event.message).split('\n')[0]}`);
      break;
    case 'finish':
      console.log(`finish after ${event.turn.steps} model calls`);
      break;
    case 'message':
      break; // every message added to the transcript; the cases above cover this turn's
    default:
      console.log(event.type);
  }
}
