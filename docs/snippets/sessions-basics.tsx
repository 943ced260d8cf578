import { createSession, scriptedModel } from '@skilltree/core';
import { TravelAgent } from './travel-agent.js';

const session = createSession(<TravelAgent />, {
  model: scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: 'flights' } }] },
    { toolCalls: [{ name: 'search_flights', input: { to: 'Oslo' } }] },
    { text: 'LH179 to Oslo costs 180 EUR.' },
  ]),
  maxSteps: 10, // model calls per send() before it fails
});

const off = session.on('event', (event) => {
  if (event.type === 'tool-call') console.log(`  event tool-call: ${event.toolCall.name}`);
  if (event.type === 'skill-loaded') console.log(`  event skill-loaded: ${event.name}`);
  if (event.type === 'context-changed')
    console.log(`  event context-changed: ${event.changes.map((c) => c.kind).join(', ')}`);
});

const turn = await session.send('Any flights to Oslo?');
off();

console.log('text:', turn.text);
console.log('steps:', turn.steps, '| messages added:', turn.messages.length);
console.log('transcript:', session.transcript.length, '| loaded:', session.loadedSkills);
console.log('config:', JSON.stringify(session.config));
session.dispose();
