import { loadSkillFolders } from '@skilltree/agent-skills';
import { Agent, createSession, Instructions, Skill, scriptedModel } from '@skilltree/core';
import { show } from './show.js';

// Two SKILL.md folders, a pinned skill, and forty more of the team's skills: too many to list.
const team = Array.from({ length: 40 }, (_, i) => `team-${i}`).map((name) => (
  <Skill key={name} name={name} description={`The runbook of ${name}`} keywords={['runbook']} />
));
const agent = (
  <Agent catalog="search">
    <Instructions>You are the team's assistant.</Instructions>
    {loadSkillFolders(new URL('./skills', import.meta.url))}
    <Skill name="escalate" description="Hand the conversation to a person" pinned />
    {team}
  </Agent>
);

const model = scriptedModel([
  { toolCalls: [{ name: 'search_skills', input: { query: 'fill in a tax form' } }] },
  { toolCalls: [{ name: 'read_skill', input: { name: 'pdf-forms' } }] },
  { text: 'Line 1 is your name, as shown on your income tax return.' },
]);
const session = createSession(agent, { model });

const first = session.request();
console.log(first.system); // no skill named, except the pinned one
console.log(first.tools.map((tool) => tool.name));
await session.send('What goes on line 1 of a W-9?');
for (const message of session.transcript.slice(1, 4)) console.log(show(message));
