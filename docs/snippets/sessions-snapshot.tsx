import { createSession, restoreSession, scriptedModel } from '@skilltree/core';
import { TravelAgent, trip } from './travel-agent.js';

const first = createSession(<TravelAgent />, {
  model: scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: 'flights' } }] },
    { toolCalls: [{ name: 'book_flight', input: { flight: 'LH179' } }] },
    { text: 'Booked.' },
  ]),
});
await first.send('Book LH179');
await first.readSkill('hotels');

// Plain JSON: store it anywhere.
const saved = JSON.stringify(first.snapshot());
first.dispose();

const restored = restoreSession(<TravelAgent />, JSON.parse(saved), {
  model: scriptedModel([{ text: 'You have LH179.' }]),
});
console.log('transcript:', restored.transcript.length, 'messages');
console.log('loaded:', restored.loadedSkills, '| active:', restored.activeSkill);
console.log('bookings:', restored.store(trip).getState().bookings);
console.log((await restored.send('What did I book?')).text);
