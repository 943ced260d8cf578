/**
 * The scripted conversation the CLI plays when no API key is set. With room for two skills,
 * `notes` is pushed out when `publish` is read and comes back in the last turn with every note,
 * because notes live in a store. Its `<Text>` shows only the latest five; the last turn finds an
 * older note with search_notes. The wiki token is used by publish_notes and never appears.
 */
import { lastToolResult, type ModelRequest, type ScriptedStep, scriptedModel, textOf } from '@skilltree/core';

export const DEMO_MESSAGES = [
  "I'm researching how sleep affects memory. Find me a few papers.",
  'Read the first three and note the key findings.',
  'What about naps?',
  "Publish everything to the team wiki as 'Sleep and memory'.",
  'Remind me: what did we find about sleep deprivation?',
];

/** The paper ids in the latest search_papers result of the request. */
function searchedIds(req: ModelRequest): string[] {
  const result = req.messages.findLast((m) => m.role === 'tool' && m.name === 'search_papers');
  if (!result) throw new Error('demo script: expected a search_papers result.');
  return [...textOf(result).matchAll(/^(P-\d+): /gm)].map((m) => m[1]);
}

const call = (name: string, input: Record<string, unknown>) => ({ name, input });
const note = (topic: string, text: string, source: string) => call('add_note', { topic, text, source });

export const DEMO_STEPS: ScriptedStep[] = [
  // 1. Search.
  { toolCalls: [call('read_skill', { name: 'sources' })] },
  { toolCalls: [call('search_papers', { query: 'sleep memory' })] },
  (req) => {
    const lines = textOf(lastToolResult(req)).split('\n');
    return { text: `I found ${lines.length} papers:\n${lines.map((l) => `- ${l}`).join('\n')}` };
  },

  // 2. Read three abstracts in one message, then note them.
  (req) => ({
    toolCalls: searchedIds(req)
      .slice(0, 3)
      .map((id) => call('read_abstract', { id })),
  }),
  { toolCalls: [call('read_skill', { name: 'notes' })] },
  {
    toolCalls: [
      note(
        'consolidation',
        'More slow-wave sleep: 18% better word-pair recall next morning, tracking spindles.',
        'P-101',
      ),
      note(
        'deprivation',
        'One night without sleep: 40% worse encoding of new pictures, less hippocampal activity.',
        'P-102',
      ),
      note(
        'emotion',
        'REM-rich sleep favours emotional memories only slightly (d = 0.21), half the original effect.',
        'P-103',
      ),
    ],
  },
  {
    text: 'Noted three findings: slow-wave sleep and consolidation (P-101), deprivation (P-102), REM and emotion (P-103).',
  },

  // 3. Naps: sources again (already loaded: it becomes active), notes still loaded.
  { toolCalls: [call('read_skill', { name: 'sources' }), call('search_papers', { query: 'nap' })] },
  (req) => ({ toolCalls: searchedIds(req).map((id) => call('read_abstract', { id })) }),
  {
    toolCalls: [
      note('naps', 'A 10-minute nap lifts alertness for about 2.5 hours.', 'P-104'),
      note('naps', 'A 30-minute nap brings half an hour of grogginess.', 'P-104'),
      note('naps', 'A 60-minute nap after learning: 12% more facts survive interference.', 'P-105'),
      note('naps', 'A 45-minute nap helps later recall; 200 mg caffeine helps attention, not recall.', 'P-106'),
    ],
  },
  (req) => {
    if (!req.context.includes('7 notes; the latest 5:')) throw new Error('demo script: expected 7 notes, 5 shown.');
    return { text: 'Short naps help alertness (P-104); longer ones protect and help memory (P-105, P-106). Noted.' };
  },

  // 4. Publish: reading publish pushes notes out; the notes are in the store all the same.
  { toolCalls: [call('read_skill', { name: 'publish' })] },
  (req) => {
    if (!req.context.includes('Wiki: connected.')) throw new Error('demo script: expected the wiki to be connected.');
    return { toolCalls: [call('publish_notes', { title: 'Sleep and memory' })] };
  },
  (req) => {
    const match = textOf(lastToolResult(req)).match(/^Published (\d+) notes to (\S+) \(revision (\d+)\)/);
    if (!match) throw new Error(`demo script: expected publish_notes to succeed, got: ${textOf(lastToolResult(req))}`);
    return { text: `Published all ${match[1]} notes: ${match[2]}` };
  },

  // 5. The notes skill comes back with its notes; the one we need is older than the latest five.
  { toolCalls: [call('read_skill', { name: 'notes' })] },
  (req) => {
    if (req.context.includes('N-2 ')) throw new Error('demo script: N-2 should not be among the latest five.');
    return { toolCalls: [call('search_notes', { query: 'deprivation' })] };
  },
  (req) => ({ text: `From our notes: ${textOf(lastToolResult(req)).replace(/^N-\d+ \[deprivation\] /, '')}` }),
];

export const demo = {
  messages: DEMO_MESSAGES,
  model: () => scriptedModel(DEMO_STEPS),
};
