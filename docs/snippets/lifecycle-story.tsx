import { createSession, scriptedModel } from '@skilltree/core';
import { show } from './show.js';
import { TravelAgent } from './travel-agent.js';

const model = scriptedModel([
  { toolCalls: [{ name: 'read_skill', input: { name: 'flights' } }] },
  { toolCalls: [{ name: 'search_flights', input: { to: 'Oslo' } }] },
  { toolCalls: [{ name: 'book_flight', input: { flight: 'LH179' } }] },
  { text: 'Booked LH179 to Oslo.' },
  // Second turn: two more reads push `flights` out (maxLoadedSkills is 2).
  { toolCalls: [{ name: 'read_skill', input: { name: 'hotels' } }] },
  { toolCalls: [{ name: 'read_skill', input: { name: 'billing' } }] },
  { toolCalls: [{ name: 'search_flights', input: { to: 'Rome' } }] },
  { text: 'Flights are unloaded; I can take payment or find a hotel.' },
]);

const session = createSession(<TravelAgent />, { model });
await session.send('Book me a flight to Oslo');
await session.send('Now a hotel, and charge me');

for (const message of session.transcript) console.log(show(message));
console.log('loaded:', session.loadedSkills.join(', '), '| active:', session.activeSkill);
