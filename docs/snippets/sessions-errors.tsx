import { createSession, type Model, scriptedModel } from '@skilltree/core';
import { TravelAgent } from './travel-agent.js';

// 1. A model error rejects send(); the transcript stays valid and the next send() goes on.
let calls = 0;
const flaky: Model = {
  name: 'flaky',
  async generate() {
    calls++;
    if (calls === 1) throw new Error('503 Service Unavailable');
    return { text: 'Back again.', toolCalls: [] };
  },
};
const session = createSession(<TravelAgent />, { model: flaky });
await session.send('Hello?').catch((error: Error) => console.log('send failed:', error.message));
console.log(
  'transcript after the failure:',
  session.transcript.map((m) => m.role),
);
console.log('next send:', (await session.send('Hello again?')).text);

// 2. maxSteps: a model that keeps calling tools is stopped with a clear error.
const looping = createSession(<TravelAgent />, {
  model: scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: 'flights' } }] },
    { toolCalls: [{ name: 'search_flights', input: { to: 'Oslo' } }] },
    { toolCalls: [{ name: 'search_flights', input: { to: 'Oslo' } }] },
  ]),
  maxSteps: 3,
});
await looping.send('Search forever').catch((error: Error) => console.log(error.message.split('.')[0]));
console.log('last message:', looping.transcript.at(-1)?.role, '(every call has its result)');

// 3. An unknown skill from code throws; from the model it is an error result.
await session.readSkill('cars').catch((error: Error) => console.log(error.message));
