import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessions, scriptedModel, textOf } from '@skilltree/core';
import { sqliteStore } from '@skilltree/store/sqlite';
import { TravelAgent } from './travel-agent.js';

const path = join(mkdtempSync(join(tmpdir(), 'travel-')), 'sessions.db');

// The first process: one turn for user-42, committed message by message.
const before = createSessions(<TravelAgent />, {
  store: sqliteStore({ path }),
  model: scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: 'flights' } }] },
    { toolCalls: [{ name: 'search_flights', input: { to: 'Oslo' } }] },
    { toolCalls: [{ name: 'book_flight', input: { flight: 'LH179' } }] },
    { text: 'Booked LH179.' },
  ]),
});
console.log((await before.send('user-42', 'Book me a flight to Oslo')).text);
await before.close(); // the process stops (a restart, a deploy)

// A new process on the same file picks the conversation up.
const after = createSessions(<TravelAgent />, {
  store: sqliteStore({ path }),
  model: scriptedModel([(req) => ({ text: req.context.match(/Flight searches: \d+/)?.[0] ?? '' })]),
});
console.log((await after.send('user-42', 'How many searches so far?')).text); // useState started over
const info = await after.get('user-42');
console.log('messages:', info?.transcriptLength, '| loaded:', info?.loadedSkills, '| stores:', info?.stores);
const page = await after.messages('user-42', { from: 0, limit: 2 });
console.log(page.map((m) => `${m.role}: ${textOf(m) || '(tool call)'}`));
await after.close();
