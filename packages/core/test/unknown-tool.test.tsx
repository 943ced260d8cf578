/**
 * `Unknown tool` says which skill a tool belongs to whenever the session can know it: a skill that
 * rendered it in an earlier mount (a restored session reads those from the lifecycle it was told), or
 * one that declares it in `<Skill tools>`. A tool of a skill
 * that was never read is not in the tree (the skill is not mounted), so only a declaration can say.
 */
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { Agent, createSession, restoreSession, Skill, Text, Tool } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { call, SkillsAgent } from './fixtures.js';

function Refunds() {
  const [verified, setVerified] = useState(false);
  return (
    <>
      <Text>{verified ? 'Verified.' : 'Not verified yet.'}</Text>
      <Tool name="verify_customer" description="Verify" run={() => setVerified(true)} />
      {verified && (
        <Tool name="refund" description="Refund" input={z.object({ cents: z.number() })} run={() => 'refunded'} />
      )}
      {verified && <Tool name="close_case" description="Close" run={() => 'closed'} />}
    </>
  );
}

/** `refunds` declares its tools (not `close_case`); `shipping` declares none. */
function Support({ declare = true }: { declare?: boolean }) {
  return (
    <Agent maxLoadedSkills={1}>
      <Skill name="refunds" description="Refund an order" tools={declare ? ['verify_customer', 'refund'] : undefined}>
        <Refunds />
      </Skill>
      <Skill name="shipping" description="Track a parcel">
        <Tool name="track" description="Track" run={() => 'on its way'} />
      </Skill>
    </Agent>
  );
}

const first = (content: string) => content.split('. Tools available now')[0];

describe('Unknown tool names the skill whenever the session can know it', () => {
  test('a tool of a skill never read, declared in <Skill tools>, says to read that skill first', async () => {
    const session = createSession(<Support />);
    const result = await call(session, 'refund', { cents: 100 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Unknown tool: refund (skill "refunds" is not loaded; read it first with read_skill). Tools available now: read_skill.',
    );
  });

  // Each case: the agent (its tools declared or not), the skills read in order, then a call the model
  // makes to a tool it is not offered, and the first sentence of the error it reads.
  test.each([
    {
      rule: 'a conditional tool of a loaded skill, not rendered yet, is not available right now in that skill',
      declare: true,
      reads: ['refunds'],
      tool: 'refund',
      input: { cents: 100 },
      says: 'Unknown tool: refund (not available right now in skill "refunds")',
    },
    {
      rule: 'a tool seen in an earlier mount of a skill that is now unloaded says to read it first',
      declare: false,
      reads: ['shipping', 'refunds'],
      tool: 'track',
      says: 'Unknown tool: track (skill "shipping" is not loaded; read it first with read_skill)',
    },
    {
      rule: 'a name no skill declares or rendered, while a skill is not loaded, says such a skill may offer it',
      declare: false,
      reads: ['refunds'],
      tool: 'cancel_order',
      says: 'Unknown tool: cancel_order (not offered right now; if a skill that is not loaded offers it, read that skill first with read_skill)',
    },
    {
      rule: 'a close name of a tool available now is still suggested when no skill claims the name',
      declare: false,
      reads: ['shipping'],
      tool: 'trak',
      says: 'Unknown tool: trak (did you mean "track"?)',
    },
  ])('$rule', async ({ declare, reads, tool, input = {}, says }) => {
    const session = createSession(<Support declare={declare} />);
    for (const skill of reads) await session.readSkill(skill);
    expect(first(textOf(await call(session, tool, input)))).toBe(says);
  });

  test('a conditional tool seen before and hidden again is not available right now in its skill, declared or not', async () => {
    const session = createSession(<Support declare={false} />);
    await session.readSkill('refunds');
    await call(session, 'verify_customer');
    expect(textOf(await call(session, 'close_case'))).toMatch(/^closed/);
    // Reading another skill unloads refunds; reading it again starts it unverified.
    await session.readSkill('shipping');
    await session.readSkill('refunds');
    expect(first(textOf(await call(session, 'close_case')))).toBe(
      'Unknown tool: close_case (not available right now in skill "refunds")',
    );
  });

  test('a declared tool keeps its hint in a restored session, which has no history of earlier mounts', async () => {
    const session = createSession(<Support />);
    await session.readSkill('refunds');
    await session.readSkill('shipping');
    const restored = restoreSession(<Support />, session.snapshot());
    expect(first(textOf(await call(restored, 'verify_customer')))).toBe(
      'Unknown tool: verify_customer (skill "refunds" is not loaded; read it first with read_skill)',
    );
  });

  test('a conditional tool rendered before a restore names its skill in the restored session, declared or not', async () => {
    const session = createSession(<Support declare={false} />);
    await session.readSkill('refunds');
    await call(session, 'verify_customer');
    await session.readSkill('shipping');
    // Another process: no history of earlier mounts but the lifecycle the model was told.
    const restored = restoreSession(<Support declare={false} />, JSON.parse(JSON.stringify(session.snapshot())));
    expect(first(textOf(await call(restored, 'refund', { cents: 5 })))).toBe(
      'Unknown tool: refund (skill "refunds" is not loaded; read it first with read_skill)',
    );
  });

  test('with every skill loaded and no skill that claims the name, there is nothing to read', async () => {
    const session = createSession(
      <SkillsAgent skills={{ only: <Tool name="ping" description="Ping" run={() => 'pong'} /> }} />,
    );
    await session.readSkill('only');
    expect(textOf(await call(session, 'launch_rockets')).split('\n')[0]).toBe(
      'Unknown tool: launch_rockets. Tools available now: read_skill, ping.',
    );
  });

  test('the tools prop is never sent to the model and offers nothing by itself', async () => {
    const session = createSession(<Support />);
    const request = session.request();
    expect(request.tools.map((t) => t.name)).toEqual(['read_skill']);
    expect(JSON.stringify(request)).not.toContain('verify_customer');
  });
});
