import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession, scriptedModel } from '@skilltree/core';
import { recordModel, replayModel } from '@skilltree/evals';
import { NotesAgent } from './hello-agent.js';

const file = join(mkdtempSync(join(tmpdir(), 'notes-')), 'take-a-note.json');

// 1. Record once, with a real model (a scripted one stands in here).
const real = scriptedModel([
  { toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }] },
  { toolCalls: [{ name: 'add_note', input: { text: 'buy milk' } }] },
  { text: 'Noted: buy milk.' },
]);
await createSession(<NotesAgent />, { model: recordModel(real, { file }) }).send('Note this down: buy milk');

// 2. Replay offline, in CI: the same requests get the same answers, no model called.
const turn = await createSession(<NotesAgent />, { model: replayModel(file) }).send('Note this down: buy milk');
console.log(turn.text);

// 3. The agent changed: the replay says which request differs, and where.
try {
  await createSession(<NotesAgent />, { model: replayModel(file, { source: 'take-a-note.json' }) }).send(
    'Note this down: buy oat milk',
  );
} catch (error) {
  console.log((error as Error).message);
}
