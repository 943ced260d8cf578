import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { formatNote, notebook } from '../notebook.js';
import { Credentials, vault } from '../vault.js';
import { useWiki } from '../wiki.js';

/**
 * Publishes notes to the team wiki. The wiki token is in the vault store: the tool uses it, and
 * neither the tool's result nor anything rendered contains it. The skill renders only whether a
 * token is there.
 */
export function Publish() {
  const wiki = useWiki();
  const connected = useAgentStore(vault, (s) => s.credentials instanceof Credentials);
  const count = useAgentStore(notebook, (s) => s.notes.length);
  return (
    <>
      <Instructions>
        Publish only when the user asks. Give the page a clear title. The wiki token is configured by the user's app;
        you never see it and must not ask the user for it.
      </Instructions>
      <Text>{connected ? 'Wiki: connected.' : 'Wiki: not connected (the app has not configured a token).'}</Text>
      {connected && count > 0 && (
        <Tool
          name="publish_notes"
          description="Publish notes to the team wiki as one page (all notes, or those of one topic)."
          input={z.object({
            title: z.string().min(3).max(80).describe('The page title'),
            topic: z.string().optional().describe('Only notes with this topic'),
          })}
          run={async ({ title, topic }, ctx) => {
            const credentials = vault.of(ctx).getState().credentials;
            if (!(credentials instanceof Credentials)) throw new Error('The wiki is not connected.');
            const notes = notebook
              .of(ctx)
              .getState()
              .notes.filter((n) => !topic || n.topic === topic.toLowerCase());
            if (notes.length === 0) return `No notes with topic "${topic}"; nothing was published.`;
            const body = notes.map((n) => `- ${formatNote(n)}`).join('\n');
            try {
              const page = await credentials.use((token) => wiki.publish({ title, body }, `Bearer ${token}`));
              return `Published ${notes.length} notes to ${page.url} (revision ${page.revision}).`;
            } catch (error) {
              // The wiki's error may echo the token back: redact before the model reads it.
              throw new Error(`The wiki refused: ${credentials.redact((error as Error).message)}`);
            }
          }}
        />
      )}
    </>
  );
}
