/**
 * `request.attribution` (issue 34): what each part of the tree costs in a request, in tokens, read
 * from the tree (which skill rendered which line and tool), adding up to the request's estimate.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createSession,
  Instructions,
  type ModelRequest,
  type RequestAttribution,
  type SessionOptions,
  Skill,
  scriptedModel,
  Text,
  Tool,
} from '../src/index.js';
import { estimateRequestTokens, specText } from '../src/request/usage-estimate.js';
import { shutDownTracing, tracing } from './tracing.js';

afterEach(shutDownTracing);

const LONG = 'Look the issue up before you answer, and quote its number in the reply. '.repeat(4).trim();

function DevAgent({ more = false }: { more?: boolean }) {
  return (
    <Agent maxLoadedSkills={1}>
      <Instructions>You help a developer with their repositories.</Instructions>
      <Text>Today is Tuesday.</Text>
      <Tool name="now" description="The time" input={z.object({})} run={() => '12:00'} />
      <Skill name="github" description="Issues and pull requests">
        <Instructions>{LONG}</Instructions>
        <Text>Open issues: 12</Text>
        <Tool
          name="search_issues"
          description="Search the issues of a repository by words, labels and state"
          input={z.object({ repo: z.string(), query: z.string(), state: z.enum(['open', 'closed']).optional() })}
          run={() => 'issue #4'}
        />
        <Tool
          name="get_issue"
          description="One issue with its comments"
          input={z.object({ repo: z.string(), number: z.number() })}
          run={() => 'issue #4: the build fails'}
        />
      </Skill>
      <Skill name="notes" description="Your notes">
        <Instructions>Keep notes short.</Instructions>
      </Skill>
      {more ? <Skill name="calendar" description="Meetings and reminders" /> : null}
    </Agent>
  );
}

/** Reads github, calls its tools twice, reads notes (github unloads: one skill at a time), replies. */
function script(appendOnly = false) {
  return scriptedModel(
    [
      { toolCalls: [{ id: 'c1', name: 'read_skill', input: { name: 'github' } }] },
      { toolCalls: [{ id: 'c2', name: 'search_issues', input: { repo: 'a/b', query: 'build' } }] },
      { toolCalls: [{ id: 'c3', name: 'get_issue', input: { repo: 'a/b', number: 4 } }] },
      { toolCalls: [{ id: 'c4', name: 'read_skill', input: { name: 'notes' } }] },
      { text: 'Issue #4: the build fails. Noted.' },
    ],
    { appendOnly },
  );
}

/** Runs one turn and returns every request the model received, in order. */
async function requestsOf(options: SessionOptions = {}, more = false, appendOnly = false): Promise<ModelRequest[]> {
  const session = createSession(<DevAgent more={more} />, { model: script(appendOnly), ...options });
  const requests: ModelRequest[] = [];
  session.on('event', (event) => {
    if (event.type === 'request') requests.push(event.request);
  });
  await session.send('Why does the build fail?');
  session.dispose();
  return requests;
}

function sumOf(a: RequestAttribution): number {
  let n = a.instructions + a.text + a.tools + a.catalog + a.transcript + a.machinery;
  for (const skill of Object.values(a.skills)) n += skill.total;
  return n;
}

describe('request.attribution', () => {
  test("a skill's tools cost the same tokens on every request while it is loaded, and nothing once it unloads", async () => {
    const requests = await requestsOf();
    expect(requests).toHaveLength(5);
    const github = requests.map((r) => r.attribution?.skills.github);
    // The tools' specs as the estimate reads them: what they cost, counted independently of the tree.
    const specs = requests[1].tools.filter((t) => t.name === 'search_issues' || t.name === 'get_issue');
    expect(specs).toHaveLength(2);
    const expected = Math.floor(specs.reduce((n, spec) => n + specText(spec).length, 0) / 4);
    expect(expected).toBeGreaterThan(30);
    expect(github[0]).toBeUndefined();
    // Loaded for requests 2 to 4 (read at the first call, pushed out by notes at the fourth).
    for (const cost of github.slice(1, 4)) expect(cost?.tools).toBe(expected);
    expect(github[4]).toBeUndefined();
    expect(requests[4].attribution?.skills.notes).toMatchObject({ tools: 0 });
  });

  test('each part is counted from the lines and tools its component rendered', async () => {
    const [first, second] = await requestsOf();
    const a = second.attribution as RequestAttribution;
    // The skill's <Instructions> and <Text> go to their own parts (escaping leaves these lines as they are).
    expect(a.skills.github.instructions).toBe(Math.floor(LONG.length / 4));
    expect(a.skills.github.text).toBe(Math.floor('Open issues: 12'.length / 4));
    expect(a.skills.github.total).toBe(a.skills.github.instructions + a.skills.github.text + a.skills.github.tools);
    // The agent's own parts.
    expect(a.instructions).toBe(Math.floor('You help a developer with their repositories.'.length / 4));
    expect(a.text).toBe(Math.floor('Today is Tuesday.'.length / 4));
    const now = second.tools.find((t) => t.name === 'now');
    expect(a.tools).toBe(Math.floor(specText(now as never).length / 4));
    // The catalog is its section of the system prompt plus the read tool.
    const read = second.tools.find((t) => t.name === 'read_skill');
    const section = second.system.length - 'You help a developer with their repositories.'.length - 2;
    expect(a.catalog).toBe(Math.floor((section + specText(read as never).length) / 4));
    // The first request holds one message: the user's.
    expect(first.attribution?.transcript).toBe(Math.ceil('user\nWhy does the build fail?'.length / 4) - 1);
  });

  test("the parts add up to the request's estimated input tokens", async () => {
    for (const options of [{}, { contextPlacement: 'system' as const }]) {
      for (const request of await requestsOf(options)) {
        const a = request.attribution as RequestAttribution;
        expect(a.counted).toBe('estimate');
        expect(a.total).toBe(estimateRequestTokens(request));
        expect(sumOf(a)).toBe(a.total);
        expect(a.machinery).toBeGreaterThan(0);
      }
    }
  });

  test('with an append-only model, the parts add up to what it receives, the notes counted as machinery', async () => {
    const requests = await requestsOf({}, false, true);
    expect(requests.every((r) => r.appendOnly)).toBe(true);
    for (const request of requests) {
      const a = request.attribution as RequestAttribution;
      expect(a.total).toBe(estimateRequestTokens(request));
      expect(sumOf(a)).toBe(a.total);
    }
    const classic = await requestsOf();
    expect(requests[2].attribution?.skills.github).toEqual(classic[2].attribution?.skills.github);
  });

  test('the catalog costs more with every skill it lists, and nothing without skills', async () => {
    const [few] = await requestsOf();
    const [more] = await requestsOf({}, true);
    expect(more.attribution?.catalog).toBeGreaterThan(few.attribution?.catalog ?? Infinity);
    const session = createSession(
      <Agent>
        <Instructions>Answer briefly.</Instructions>
      </Agent>,
      { model: scriptedModel([{ text: 'ok' }]) },
    );
    const bare = session.request().attribution as RequestAttribution;
    expect(bare.catalog).toBe(0);
    expect(bare.skills).toEqual({});
    expect(sumOf(bare)).toBe(estimateRequestTokens(session.request()));
    session.dispose();
  });

  test("with the session's tokenizer, each part is counted by it", async () => {
    // Counts words: far from 4 characters per token, so the test tells the two apart.
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const requests = await requestsOf({ tokenizer: words });
    const a = requests[1].attribution as RequestAttribution;
    expect(a.counted).toBe('tokenizer');
    expect(a.skills.github.instructions).toBe(words(LONG));
    expect(a.skills.github.text).toBe(3);
    expect(sumOf(a)).toBe(a.total);
  });

  test("the attribution is no part of the request's own data: its JSON and keys are unchanged", async () => {
    const [request] = await requestsOf();
    expect(request.attribution).toBeDefined();
    expect(Object.keys(request)).not.toContain('attribution');
    expect(JSON.stringify(request)).not.toContain('attribution');
    // Read twice, counted once.
    expect(request.attribution).toBe(request.attribution);
  });

  test('the model-call span carries skilltree.attribution.* attributes', async () => {
    const t = tracing();
    await requestsOf({ telemetry: { tracer: t.tracer } });
    const calls = t.exporter.getFinishedSpans().filter((s) => s.name.startsWith('chat '));
    expect(calls).toHaveLength(5);
    const second = calls.sort(t.order.byStart)[1].attributes;
    expect(second['skilltree.attribution.skills.github.tools']).toBeGreaterThan(30);
    expect(second['skilltree.attribution.total']).toBeGreaterThan(0);
    expect(second['skilltree.attribution.catalog']).toBeGreaterThan(0);
    expect(calls[4].attributes['skilltree.attribution.skills.github.tools']).toBeUndefined();
    expect(calls[4].attributes['skilltree.attribution.skills.notes.instructions']).toBeGreaterThan(0);
  });
});
