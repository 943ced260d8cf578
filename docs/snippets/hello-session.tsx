import { createSession, scriptedModel } from '@skilltree/core';
import { NotesAgent } from './hello-agent.js';

// A scripted model plays the model's side, one step per model call: no API key needed.
const model = scriptedModel([
  { toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }] },
  { toolCalls: [{ name: 'add_note', input: { text: 'buy milk' } }] },
  { text: 'Noted: buy milk.' },
]);

const session = createSession(<NotesAgent />, { model });
const turn = await session.send('Remember to buy milk');

console.log(turn.text); // the model's final reply
console.log(turn.steps); // model calls in this turn
console.log(session.request().context); // what the next request will carry
