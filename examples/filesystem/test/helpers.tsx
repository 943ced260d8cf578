import { type RenderAgentOptions, renderAgent } from '@skilltree/testing';
// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';
import { FilesystemAgent } from '../src/filesystem-agent.js';

// The message readers every example's tests share.
export { failed, ok, own, text } from '@skilltree/test-kit';

export function renderFs(root: string, options: RenderAgentOptions = {}) {
  return renderAgent(<FilesystemAgent root={root} />, options);
}

/** Everything a sequence of requests carried, as one string. */
export function allText(messages: readonly unknown[]): string {
  return JSON.stringify(messages);
}
