import { Agent, createSession, Skill, scriptedModel, Tool } from '@skilltree/core';
import { show } from './show.js';

// Two skills that both render a tool named `lookup`: they cannot be loaded together.
const session = createSession(
  <Agent>
    <Skill name="orders" description="Look up orders">
      <Tool name="lookup" description="Find an order" run={() => 'A-1042: shipped'} />
    </Skill>
    <Skill name="stock" description="Look up stock">
      <Tool name="lookup" description="Find a product" run={() => '12 in stock'} />
    </Skill>
  </Agent>,
  {
    model: scriptedModel([
      { toolCalls: [{ name: 'read_skill', input: { name: 'orders' } }] },
      { toolCalls: [{ name: 'read_skill', input: { name: 'stock' } }] },
      { text: 'I can look up orders; stock lookups clash with it.' },
    ]),
  },
);
await session.send('Where is A-1042, and is it in stock?');

for (const message of session.transcript) console.log(show(message));
console.log('loaded:', session.loadedSkills.join(', '));
console.log(
  'tools:',
  session
    .request()
    .tools.map((t) => t.name)
    .join(', '),
);
