/**
 * The tool half the test agents share: a tool that appends one string of its input to a list
 * store (a cart's items, a user's notes) and says what it added.
 */
import { type AgentStoreDef, Tool } from '@skilltree/core';
import { z } from 'zod';

/** A store whose state holds a list of strings. */
export type ListStore = AgentStoreDef<{ items: string[] }>;

/** What the tool is called, and which input field it appends. */
export interface AppendToolProps {
  store: ListStore;
  name: string;
  description: string;
  /** The one input field, a string (`sku`, `text`). */
  field: string;
}

/** `<Tool name input={{ [field]: string }}>`: appends the field to `store`'s items, answers `added <value>`. */
export function AppendTool({ store, name, description, field }: AppendToolProps) {
  return (
    <Tool
      name={name}
      description={description}
      input={z.object({ [field]: z.string() })}
      run={(input, ctx) => {
        const value = String(input[field]);
        store.of(ctx).setState((s) => ({ items: [...s.items, value] }));
        return `added ${value}`;
      }}
    />
  );
}
