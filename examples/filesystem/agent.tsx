/**
 * The module the CLI loads:
 *   pnpm skilltree chat examples/filesystem/agent.tsx                 # a temporary copy of ./sandbox
 *   SKILLTREE_SANDBOX=~/notes pnpm skilltree chat examples/filesystem/agent.tsx
 * `default` is the agent; `demo` is the conversation played offline when no API key is set.
 */
import { useState } from 'react';
import { resolveSandbox } from './src/config.js';
import { FilesystemAgent } from './src/filesystem-agent.js';

export { demo } from './src/demo.js';

/** The agent, with its sandbox from `--sandbox`, `SKILLTREE_SANDBOX`, or a copy of `./sandbox`. */
export default function FilesystemExample({ root }: { root?: string }) {
  const [dir] = useState(() => root ?? resolveSandbox());
  return <FilesystemAgent root={dir} />;
}
