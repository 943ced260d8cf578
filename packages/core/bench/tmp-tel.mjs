import { performance } from 'node:perf_hooks';
import { createElement as h } from 'react';
import { z } from 'zod';
import { Agent, createSession, Instructions, Tool, scriptedModel } from '../dist/index.js';
const agent = h(Agent, null, h(Instructions, null, 'x'), h(Tool, { name: 't', description: 'd', input: z.object({}), run: () => 'ok' }));
async function turn(options, rounds = 300) {
  const steps = [];
  for (let i = 0; i < rounds; i++) steps.push({ toolCalls: [{ name: 't', input: {} }] }, { text: 'Done.' });
  const s = createSession(agent, { model: scriptedModel(steps), ...options });
  const t = [];
  for (let i = 0; i < rounds; i++) { const t0 = performance.now(); await s.send('hi'); t.push(performance.now() - t0); }
  t.sort((a, b) => a - b);
  return t[t.length >> 1] * 1000;
}
createSession(agent, {}).dispose(); await new Promise((r) => setTimeout(r, 50));
for (let r = 0; r < 6; r++) {
  const on = await turn({});
  const off = await turn({ telemetry: false });
  console.log(`off ${off.toFixed(0)} µs   on ${on.toFixed(0)} µs`);
}
