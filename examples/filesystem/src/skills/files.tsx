import { Instructions, Tool } from '@skilltree/core';
import { z } from 'zod';
import { useSandbox } from '../context.js';
import { listDir, MAX_LINES, readLines } from '../files.js';

/** List folders and read files. */
export function Files() {
  const sandbox = useSandbox();
  return (
    <>
      <Instructions>
        {`Paths are relative to the sandbox root, e.g. notes/todo.md; "." is the root. read_file returns at most ${MAX_LINES} lines, numbered; the numbers are not part of the file.`}
      </Instructions>
      <Tool
        name="list_dir"
        description="List a folder of the sandbox: sub-folders end with /, files show their size."
        input={z.object({ path: z.string().default('.').describe('Folder, relative to the sandbox root') })}
        run={({ path }) => listDir(sandbox, path)}
      />
      <Tool
        name="read_file"
        description="Read a text file of the sandbox, optionally a range of lines."
        input={z.object({
          path: z.string().describe('File, relative to the sandbox root'),
          fromLine: z.number().int().positive().optional().describe('First line, 1-based'),
          toLine: z.number().int().positive().optional().describe('Last line, inclusive'),
        })}
        run={({ path, fromLine, toLine }) => readLines(sandbox, path, fromLine, toLine)}
      />
    </>
  );
}
