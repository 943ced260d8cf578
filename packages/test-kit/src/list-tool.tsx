/**
 * The tool the test agents share: one that appends a string of its input to a list in an agent
 * store (a cart's items, a user's notes) and says what it did.
 */
import { type AgentStoreDef, Tool } from '@skilltree/core';
import { z } from 'zod';

/** The keys of `T` that hold a list of strings. */
export type ListKey<T> = { [K in keyof T]: T[K] extends string[] ? K : never }[keyof T];

/** What the tool is called, which input field it appends, to which list, and what it answers. */
export interface AppendToolProps<T> {
  store: AgentStoreDef<T>;
  /** The store's list the value goes to. */
  list: ListKey<T>;
  name: string;
  description: string;
  /** The one input field, a string (`sku`, `text`). */
  field: string;
  /** The tool's result; `added <value>` when left out. */
  reply?(value: string): string;
}

/** `<Tool name input={{ [field]: string }}>` that appends the field to `store`'s `list`. */
export function AppendTool<T>({ store, list, name, description, field, reply }: AppendToolProps<T>) {
  return (
    <Tool
      name={name}
      description={description}
      input={z.object({ [field]: z.string() })}
      run={(input, ctx) => {
        const value = String(input[field]);
        store.of(ctx).setState((s) => ({ [list]: [...(s[list] as string[]), value] }) as Partial<T>);
        return reply ? reply(value) : `added ${value}`;
      }}
    />
  );
}
