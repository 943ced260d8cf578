import { loadSkillFolders } from '@skilltree/agent-skills';
import { Agent, createSession } from '@skilltree/core';

const skills = new URL('./skills', import.meta.url);

// Lenient (the default): a folder that bends the specification still loads, and each departure
// is a warning: onWarning now, then the session's `warning` event and `session.warnings`.
const session = createSession(<Agent>{loadSkillFolders(skills)}</Agent>);
console.log(session.skills.map((skill) => `${skill.name} — ${skill.description}`));
for (const warning of session.warnings) console.log(`[${warning.source}] ${warning.message}`);

// Strict: the same folder is refused, naming the file, each field and its rule.
try {
  loadSkillFolders(skills, { strict: true });
} catch (error) {
  console.log(String(error));
}
