import { Agent, Instructions, Skill, Text } from '@skilltree/core';
import { useMemo } from 'react';
import { SandboxProvider } from './context.js';
import { Sandbox } from './sandbox.js';
import { Edit } from './skills/edit.js';
import { Files } from './skills/files.js';
import { Search } from './skills/search.js';

export interface FilesystemAgentProps {
  /** The folder the agent may read and edit. Nothing outside it is reachable. */
  root: string;
}

export function FilesystemAgent({ root }: FilesystemAgentProps) {
  const sandbox = useMemo(() => new Sandbox(root), [root]);
  return (
    <Agent>
      <Instructions>
        You help the user with the files in one folder, the sandbox. You cannot reach anything outside it; if asked to,
        say so. Quote paths relative to the sandbox root.
      </Instructions>
      <Text>{`Sandbox root: ${sandbox.given}`}</Text>
      <SandboxProvider sandbox={sandbox}>
        <Skill name="files" description="List folders and read files in the sandbox">
          <Files />
        </Skill>
        <Skill name="search" description="Find files by name and search their contents">
          <Search />
        </Skill>
        <Skill name="edit" description="Create, rewrite and change files; undo the last edit">
          <Edit />
        </Skill>
      </SandboxProvider>
    </Agent>
  );
}
