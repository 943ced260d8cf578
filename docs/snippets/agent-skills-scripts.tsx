import { SkillFolder } from '@skilltree/agent-skills';
import { Agent, createSession, ownTextOf, scriptedModel } from '@skilltree/core';

const agent = (
  <Agent>
    <SkillFolder
      path={new URL('./skills/pdf-forms', import.meta.url)}
      scripts={{ interpreters: { '.mjs': 'node' }, timeoutMs: 10_000 }}
    />
  </Agent>
);

const model = scriptedModel([
  { toolCalls: [{ name: 'read_skill', input: { name: 'pdf-forms' } }] },
  {
    toolCalls: [
      { name: 'pdf-forms_run_script', input: { script: 'scripts/fill.mjs', args: ['line1=Ada', 'line2=Ada Inc.'] } },
    ],
  },
  { text: 'Filled.' },
]);
const session = createSession(agent, { model });
const turn = await session.send('Fill in a W-9 for Ada, of Ada Inc.');

const result = turn.messages.findLast((m) => m.role === 'tool');
console.log(ownTextOf(result!)); // the script's report, without the context lines
