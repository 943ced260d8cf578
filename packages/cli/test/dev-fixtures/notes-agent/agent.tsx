import { Agent, Instructions, Skill, scriptedModel, Text, Tool } from '@skilltree/core';
import { z } from 'zod';
import { Notes } from './notes.js';

function Weather() {
  return (
    <>
      <Instructions>Report the weather in one sentence.</Instructions>
      <Tool
        name="forecast"
        description="Tomorrow's weather"
        input={z.object({ city: z.string() })}
        run={() => 'sunny'}
      />
    </>
  );
}

function Clock() {
  return <Tool name="now" description="The current time" input={z.object({})} run={() => '12:00'} />;
}

export default function NotesAgent() {
  return (
    <Agent maxLoadedSkills={2}>
      <Instructions>You keep notes for the user.</Instructions>
      <Text>The user is testing the playground.</Text>
      <Clock />
      <Skill name="notes" description="Write and list notes">
        <Notes />
      </Skill>
      <Skill name="weather" description="Report the weather">
        <Weather />
      </Skill>
    </Agent>
  );
}

export const demo = {
  messages: ['Remember to buy milk', 'What are my notes?'],
  model: () =>
    scriptedModel([
      {
        reasoning: 'The notes skill has the tool to add one.',
        text: 'Let me open my notes.',
        toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }],
      },
      { toolCalls: [{ name: 'add_note', input: { text: 'buy milk' } }] },
      { text: 'Noted: buy milk.' },
      (req) => ({ text: `Your notes: ${/Notes: (.*)/.exec(req.context)?.[1] ?? 'none'}.` }),
      { text: 'Anything else?' },
    ]),
};
