import { Instructions, Tool } from '@skilltree/core';
import { z } from 'zod';
import { useSandbox } from '../context.js';
import { findFiles, grep } from '../files.js';

/** Find files by name, and text inside them. */
export function Search() {
  const sandbox = useSandbox();
  return (
    <>
      <Instructions>
        Use find_files for names (globs: * within a folder, ** across folders) and grep for contents (JavaScript regular
        expressions). Results name files relative to the sandbox root, with line numbers for grep.
      </Instructions>
      <Tool
        name="find_files"
        description="Find files by glob. A pattern without / matches file names in every folder (*.md); with /, whole paths (notes/**/*.md)."
        input={z.object({ pattern: z.string().min(1).describe('A glob, e.g. *.md or notes/**/2026-*.md') })}
        run={({ pattern }) => findFiles(sandbox, pattern)}
      />
      <Tool
        name="grep"
        description="Search file contents with a regular expression; returns path:line: text for each match."
        input={z.object({
          pattern: z.string().min(1).describe('A JavaScript regular expression'),
          path: z.string().default('.').describe('A folder or file to search, relative to the sandbox root'),
          ignoreCase: z.boolean().default(false),
        })}
        run={({ pattern, path, ignoreCase }) => grep(sandbox, pattern, path, { ignoreCase })}
      />
    </>
  );
}
