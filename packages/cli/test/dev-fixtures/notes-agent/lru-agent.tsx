/**
 * The notes agent with room for one loaded skill, and a script that reads notes, then weather
 * (which pushes notes out), then notes again: notes is mounted twice. The dev-server test reloads
 * it and checks that mount counts, the LRU order and the store survive.
 */
import { Agent, Skill, scriptedModel, Tool } from '@skilltree/core';
import { z } from 'zod';
import { Notes } from './notes.js';

export default function LruAgent() {
  return (
    <Agent maxLoadedSkills={1}>
      <Skill name="notes" description="Write and list notes">
        <Notes />
      </Skill>
      <Skill name="weather" description="Report the weather">
        <Tool name="forecast" description="Tomorrow's weather" input={z.object({})} run={() => 'sunny'} />
      </Skill>
    </Agent>
  );
}

const read = (name: string) => ({ toolCalls: [{ name: 'read_skill', input: { name } }] });

export const demo = {
  messages: ['Remember to buy milk', 'Also eggs'],
  model: () =>
    scriptedModel([
      read('notes'),
      read('weather'),
      read('notes'),
      { toolCalls: [{ name: 'add_note', input: { text: 'buy milk' } }] },
      { text: 'Noted.' },
      { toolCalls: [{ name: 'add_note', input: { text: 'eggs' } }] },
      (req) => ({ text: `Your notes: ${/Notes: (.*)/.exec(req.context)?.[1] ?? 'none'}.` }),
    ]),
};
