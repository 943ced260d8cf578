import { createSession } from '@skilltree/core';
import { anthropic } from '@skilltree/models/anthropic';
import { NotesAgent } from './hello-agent.js';

// Reads ANTHROPIC_API_KEY from the environment.
const session = createSession(<NotesAgent />, { model: anthropic({ model: 'claude-sonnet-4-5' }) });

session.on('tool-call', ({ toolCall }) => console.log(`[tool] ${toolCall.name} ${JSON.stringify(toolCall.input)}`));
const turn = await session.send('Remember that the dentist is on Tuesday at 10.');
console.log(turn.text);
console.log(session.request().context);
