import { loadSkillFolders } from '@skilltree/agent-skills';
import { Agent, createSession, scriptedModel, textOf } from '@skilltree/core';

// Every sub-folder of ./skills that holds a SKILL.md becomes a <Skill>.
const agent = <Agent>{loadSkillFolders(new URL('./skills', import.meta.url))}</Agent>;

const model = scriptedModel([
  { toolCalls: [{ name: 'read_skill', input: { name: 'pdf-forms' } }] },
  { toolCalls: [{ name: 'pdf-forms_read_file', input: { path: 'references/w9.md' } }] },
  { text: 'Line 1 is your name, as shown on your income tax return.' },
]);
const session = createSession(agent, { model });

console.log(session.request().system); // the catalog: name and description from each frontmatter
const turn = await session.send('What goes on line 1 of a W-9?');
console.log(session.request().context); // the loaded skill: SKILL.md's body, then its files
console.log(session.request().tools.map((tool) => tool.name));
console.log(textOf(turn.messages.findLast((m) => m.role === 'tool')!)); // what pdf-forms_read_file returned
