import { createSession, scriptedModel } from '@skilltree/core';
import { type CardVault, RefundAgent } from './refund-agent.js';
import { show } from './show.js';

const CARD = '4000 0000 0000 4242';
const vault: CardVault = {
  last4: () => CARD.slice(-4),
  refund: () => 're_1001',
};

const model = scriptedModel([
  { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] },
  { toolCalls: [{ name: 'refund', input: { cents: 2500 } }] }, // not rendered yet
  { toolCalls: [{ name: 'verify_customer', input: { code: '0000' } }] }, // run throws
  { toolCalls: [{ name: 'verify_customer', input: { code: '4711' } }] },
  { toolCalls: [{ name: 'refund', input: { cents: -5 } }] }, // invalid input: run is not called
  { toolCalls: [{ name: 'refund', input: { cents: 2500 } }] },
  { text: 'Done: 25.00 EUR is on its way back to your card.' },
]);

const session = createSession(<RefundAgent vault={vault} />, { model });
await session.send('Please refund my 25 EUR. My code is 4711.');

for (const message of session.transcript) console.log(show(message));
console.log('card number anywhere in the snapshot:', JSON.stringify(session.snapshot()).includes(CARD));
