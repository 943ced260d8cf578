import { createSession, scriptedModel } from '@skilltree/core';
import { show } from './show.js';
import { TravelAgent } from './travel-agent.js';

const model = scriptedModel([
  { toolCalls: [{ name: 'read_skill', input: { name: 'flights' } }] },
  { toolCalls: [{ name: 'search_flights', input: { to: 'Oslo' } }] },
  { text: 'LH179 to Oslo: 180 EUR.' },
  { toolCalls: [{ name: 'search_flights', input: { to: 'Rome' } }] },
  { text: 'LH182 to Rome: 180 EUR.' },
]);
// A cap of 4 messages, to see the window move.
const session = createSession(<TravelAgent />, { model, maxTranscriptMessages: 4 });
await session.send('Flights to Oslo?');
await session.send('And to Rome?');

console.log(`transcript: ${session.transcript.length} messages`);
console.log('window:');
for (const message of session.request().messages) console.log(`  ${show(message)}`);
