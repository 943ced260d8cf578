import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { useSandbox } from '../context.js';
import { type Before, replaceText, restore, writeText } from '../files.js';
import { edits } from '../store.js';

function summarize(log: readonly Before[]): string {
  const counts = new Map<string, number>();
  for (const edit of log) counts.set(edit.path, (counts.get(edit.path) ?? 0) + 1);
  return [...counts].map(([file, n]) => (n > 1 ? `${file} (${n} edits)` : file)).join(', ');
}

/** Write and change files; undo the last edit. */
export function Edit() {
  const sandbox = useSandbox();
  const log = useAgentStore(edits, (s) => s.log);
  return (
    <>
      <Instructions>
        Read a file before you change it. Prefer replace_in_file for small changes: quote the old text exactly, enough
        of it to occur once. Use write_file for new files or complete rewrites. Tell the user what you changed.
      </Instructions>
      {log.length > 0 && <Text>{`Edited in this conversation: ${summarize(log)}`}</Text>}
      <Tool
        name="write_file"
        description="Create a file, or replace all of its content. Creates missing folders."
        input={z.object({
          path: z.string().describe('File, relative to the sandbox root'),
          content: z.string().describe('The complete new content'),
        })}
        run={async ({ path, content }, ctx) => {
          const edit = await writeText(sandbox, path, content);
          edits.of(ctx).setState((s) => ({ log: [...s.log, edit] }));
          return `${edit.before === null ? 'Created' : 'Rewrote'} ${edit.path} (${content.length} characters).`;
        }}
      />
      <Tool
        name="replace_in_file"
        description="Replace one exact occurrence of some text in a file."
        input={z.object({
          path: z.string().describe('File, relative to the sandbox root'),
          old: z.string().min(1).describe('The exact text to replace; it must occur exactly once'),
          new: z.string().describe('The replacement'),
        })}
        run={async ({ path, old, new: next }, ctx) => {
          const edit = await replaceText(sandbox, path, old, next);
          edits.of(ctx).setState((s) => ({ log: [...s.log, edit] }));
          return `Replaced 1 occurrence in ${edit.path}.`;
        }}
      />
      {log.length > 0 && (
        <Tool
          name="undo_last_edit"
          description={`Undo the last edit (${log[log.length - 1].path}).`}
          input={z.object({})}
          run={async (_input, ctx) => {
            const store = edits.of(ctx);
            const last = store.getState().log.at(-1);
            if (!last) return 'Nothing to undo.';
            await restore(sandbox, last);
            store.setState((s) => ({ log: s.log.slice(0, -1) }));
            return last.before === null
              ? `Deleted ${last.path}, which the edit had created.`
              : `Restored ${last.path}.`;
          }}
        />
      )}
    </>
  );
}
