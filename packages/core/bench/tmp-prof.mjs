import { createElement as h } from 'react';
import { z } from 'zod';
import { Agent, createSession, Instructions, Tool, scriptedModel } from '../dist/index.js';
const agent = h(Agent, null, h(Instructions, null, 'x'), h(Tool, { name: 't', description: 'd', input: z.object({}), run: () => 'ok' }));
createSession(agent, {}).dispose(); await new Promise((r) => setTimeout(r, 50));
const mode = process.argv[2] === 'off' ? { telemetry: false } : {};
for (let k = 0; k < 20; k++) {
  const steps = [];
  for (let i = 0; i < 300; i++) steps.push({ toolCalls: [{ name: 't', input: {} }] }, { text: 'Done.' });
  const s = createSession(agent, { model: scriptedModel(steps), ...mode });
  for (let i = 0; i < 300; i++) await s.send('hi');
  s.dispose();
}
