import { Agent, Instructions, Skill, Text, Tool } from '@skilltree/core';
import { useEffect, useState } from 'react';
import { z } from 'zod';

/** Where the skill reads and closes tickets. Tests pass a fake. */
export interface TicketApi {
  list(): Promise<string[]>;
  close(id: string): Promise<void>;
}

function Tickets({ api }: { api: TicketApi }) {
  const [open, setOpen] = useState<string[] | null>(null);
  useEffect(() => {
    api.list().then(setOpen);
  }, [api]);

  if (!open) return <Text>Loading tickets…</Text>;
  return (
    <>
      <Instructions>Close a ticket only when the user asks you to.</Instructions>
      <Text>Open tickets: {open.join(', ') || 'none'}</Text>
      {open.length > 0 && (
        <Tool
          name="close_ticket"
          description="Close an open ticket"
          input={z.object({ id: z.string() })}
          run={async ({ id }) => {
            if (!open.includes(id)) throw new Error(`No open ticket ${id}`);
            await api.close(id);
            setOpen(open.filter((ticket) => ticket !== id));
            return `Closed ${id}`;
          }}
        />
      )}
    </>
  );
}

export const SupportAgent = ({ api }: { api: TicketApi }) => (
  <Agent>
    <Instructions>You are a support agent.</Instructions>
    <Skill name="tickets" description="List and close support tickets">
      <Tickets api={api} />
    </Skill>
  </Agent>
);
