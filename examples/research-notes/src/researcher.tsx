import { Instructions, Subagent } from '@skilltree/core';
import { z } from 'zod';
import { Sources } from './skills/sources.js';

/** What the researcher hands back: each finding with the paper it comes from. */
export const FINDINGS = z.object({
  findings: z
    .array(
      z.object({
        claim: z.string().describe('One finding, with its numbers, in one sentence'),
        source: z.string().describe('The paper id it comes from, e.g. P-101'),
      }),
    )
    .describe('The findings that answer the question, most relevant first'),
});

/**
 * A subagent that researches one question in a context of its own: it searches the library and
 * reads the abstracts it needs, and hands back only the findings with their sources, so the
 * abstracts it read never fill the assistant's conversation. Each call starts afresh.
 */
export function Researcher() {
  return (
    <Subagent
      name="researcher"
      description="Research one question in the library in a context of your own and get back the findings with their paper ids (the abstracts stay out of this conversation). Give it the question in full."
      result={FINDINGS}
      maxSteps={8}
    >
      <Instructions>
        You research one question in a small library. Search, read the abstracts that fit, then call finish with the
        findings: one sentence each, with its numbers and the paper id it comes from. Report only what the abstracts
        say.
      </Instructions>
      <Sources />
    </Subagent>
  );
}
