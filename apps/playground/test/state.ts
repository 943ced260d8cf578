/** A DevState like the one `skilltree dev` sends after "Remember to buy milk" on the fixture agent. */
import type { DevState, Message, SessionConfig, SessionView } from '../src/protocol.js';

const text = (value: string) => [{ type: 'text' as const, text: value }];

/** A reasoning part as Claude returns it: readable `text` (maybe none) and the provider's opaque data. */
const reasoning = (value: string, providerData: Record<string, string>) => ({
  type: 'reasoning' as const,
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  text: value,
  providerData,
});

type ContextChanges = Extract<Message['content'][number], { type: 'context-changed' }>['changes'];

/** A tool message as core records it: the tool's text, then what the call changed in the context. */
const toolResult = (toolCallId: string, name: string, result: string, changes: ContextChanges): Message => ({
  role: 'tool',
  toolCallId,
  name,
  content: [...text(result), { type: 'context-changed', changes }],
});

export const transcript: Message[] = [
  { role: 'user', content: text('Remember to buy milk') },
  {
    role: 'assistant',
    content: [reasoning('The notes skill can add notes.', { signature: 'c2lnbmVk' }), ...text('Let me open my notes.')],
    toolCalls: [{ id: 'call_1', name: 'read_skill', input: { name: 'notes' } }],
  },
  toolResult('call_1', 'read_skill', 'Loaded skill "notes"; it is now active.', [
    { kind: 'loaded', skill: 'notes' },
    { kind: 'line', skill: 'notes', text: 'Notes: none' },
  ]),
  {
    role: 'assistant',
    // Redacted thinking: no readable text, only the encrypted data.
    content: [reasoning('', { redactedData: 'cmVkYWN0ZWQ=' })],
    toolCalls: [{ id: 'call_2', name: 'add_note', input: { text: 'buy milk' } }],
  },
  toolResult('call_2', 'add_note', 'added buy milk', [{ kind: 'line', skill: 'notes', text: 'Notes: buy milk' }]),
  { role: 'assistant', content: text('Noted: buy milk.') },
];

const context =
  '<current_context>\n<agent>\nThe user is testing the playground.\n</agent>\n<skill name="notes" active="true">\nKeep notes short.\nNotes: buy milk\n</skill>\n</current_context>';

const config: SessionConfig = {
  maxLoadedSkills: 2,
  maxTranscriptMessages: 60,
  contextLineLimit: 200,
  contextPlacement: 'end',
  readToolName: 'read_skill',
  maxSteps: 20,
  toolTimeout: 60_000,
  maxToolResultChars: 100_000,
  windowMode: 'sliding',
};

const object = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
});

/** The system prompt of that request. */
const system =
  'You keep notes for the user.\n\n## Skills\n- notes — Write and list notes\n- weather — Report the weather';

/** The two tools the request offers, as the model sees them. */
const readSkill = {
  name: 'read_skill',
  description: 'Load a skill by name',
  inputSchema: object({ name: { type: 'string' } }),
};
const addNote = { name: 'add_note', description: 'Add a note', inputSchema: object({ text: { type: 'string' } }) };

/** Core's view of the session after that turn, as `skilltree dev` sends it. */
export function makeView(overrides: Partial<SessionView> = {}): SessionView {
  return {
    agent: { props: { maxLoadedSkills: 2 }, instructions: ['You keep notes for the user.'] },
    system,
    context,
    contextPlacement: 'end',
    sections: [
      {
        skill: null,
        active: false,
        lines: [{ text: 'The user is testing the playground.', kind: 'text', owner: 'NotesAgent' }],
      },
      {
        skill: 'notes',
        active: true,
        lines: [
          { text: 'Keep notes short.', kind: 'instructions', owner: 'Notes' },
          { text: 'Notes: buy milk', kind: 'text', owner: 'NoteList' },
        ],
      },
    ],
    tools: [
      { ...readSkill, skill: null, owner: 'skilltree' },
      { name: 'now', description: 'The current time', inputSchema: object({}), skill: null, owner: 'Clock' },
      { ...addNote, skill: 'notes', owner: 'Notes' },
    ],
    skills: [
      {
        name: 'notes',
        description: 'Write and list notes',
        owner: 'NotesAgent',
        state: 'active',
        mounts: 1,
        suspended: false,
        tools: ['add_note'],
      },
      {
        name: 'weather',
        description: 'Report the weather',
        owner: 'NotesAgent',
        state: 'unloaded',
        mounts: 0,
        suspended: false,
        tools: [],
      },
    ],
    loadedSkills: ['notes'],
    problems: [],
    window: { start: 0, size: 6, transcriptLength: 6 },
    config,
    stores: { notes: { notes: ['buy milk'] } },
    warnings: [],
    busy: false,
    blocked: null,
    ...overrides,
  };
}

export function makeState(overrides: Partial<DevState> = {}): DevState {
  return {
    module: '/tmp/project/agent.tsx',
    generation: 1,
    model: 'scripted',
    scripted: true,
    busy: false,
    error: null,
    loadError: null,
    view: makeView(),
    transcript,
    windowStart: 0,
    request: {
      system,
      context,
      messages: transcript,
      tools: [readSkill, addNote],
      contextPlacement: 'end',
    },
    // The add_note result: the last user-role message of the window.
    placed: 4,
    waiting: [],
    subagentRuns: [],
    requestError: null,
    timeline: [
      {
        turn: 1,
        step: 1,
        at: 1,
        loaded: [],
        unloaded: [],
        toolsAdded: ['read_skill'],
        toolsRemoved: [],
        linesAdded: 1,
        linesRemoved: 0,
        lineSamples: ['The user is testing the playground.'],
        bytes: 800,
        prefixBytes: 0,
        messages: 1,
        transcript: 1,
        generation: 1,
        appendOnly: false,
        prefixChange: null,
        reasoning: ['The notes skill can add notes.'],
      },
      {
        turn: 1,
        step: 2,
        at: 2,
        loaded: ['notes'],
        unloaded: [],
        toolsAdded: ['add_note'],
        toolsRemoved: [],
        linesAdded: 2,
        linesRemoved: 0,
        lineSamples: ['Keep notes short.', 'Notes: none'],
        bytes: 1500,
        prefixBytes: 1200,
        messages: 3,
        transcript: 3,
        generation: 1,
        appendOnly: false,
        prefixChange: { path: 'messages.0.content.1', appendOnly: false },
        reasoning: [''],
      },
    ],
    cost: { price: null, steps: [], unreported: 3, total: { usage: {}, cost: null } },
    reloads: [],
    notes: [],
    demoMessages: ['Remember to buy milk', 'What are my notes?'],
    ...overrides,
  };
}
