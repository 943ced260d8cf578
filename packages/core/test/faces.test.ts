/**
 * Core's two faces. `@skilltree/core` (src/index.ts) is what an app writes with, small enough to
 * read: at most 120 names, each with its TSDoc. `@skilltree/core/provider` (src/provider.ts) is what
 * an adapter builds on. A name is in both only when an app holds it too; that list is here, so it
 * grows by a decision (the reasons are in provider.ts's header).
 */
import { join } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const src = join(import.meta.dirname, '../src');
const program = ts.createProgram([join(src, 'index.ts'), join(src, 'provider.ts')], {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noEmit: true,
  types: [],
});
const checker = program.getTypeChecker();

/** A face's exports: each name and the declarations it stands for (aliases followed). */
function face(file: string): Map<string, ts.Declaration[]> {
  const source = program.getSourceFile(join(src, file));
  if (!source) throw new Error(`${file} is not in the program`);
  const module = checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${file} has no exports`);
  const out = new Map<string, ts.Declaration[]>();
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    out.set(symbol.name, target.declarations ?? []);
  }
  return out;
}

/** Whether a declaration carries a `/** … *\/` comment (on its statement, for a `const`). */
function hasTsDoc(declaration: ts.Declaration): boolean {
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const text = node.getSourceFile().getFullText();
  return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).some(
    (c) => c.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith('/**', c.pos),
  );
}

/** Names without TSDoc on any of their declarations, as `name (file)`. */
function undocumented(exports: Map<string, ts.Declaration[]>): string[] {
  return [...exports]
    .filter(([, declarations]) => declarations.length === 0 || !declarations.some(hasTsDoc))
    .map(([name, declarations]) => `${name} (${declarations[0]?.getSourceFile().fileName.slice(src.length + 1)})`);
}

const root = face('index.ts');
const provider = face('provider.ts');

/** Names in both faces: an app holds them, and an adapter does too. */
const BOTH = [
  'AssistantMessage',
  'ContextChange',
  'FileRejectedError',
  'FileRejection',
  'Message',
  'Model',
  'ModelRequest',
  'SessionBusyError',
  'SessionConflictError',
  'SessionNotFoundError',
  'SessionStore',
  'TelemetryTracer',
  'ToolCall',
  'ToolMessage',
  'Usage',
  'UserMessage',
];

test('the root face exports at most 120 names, each with TSDoc', () => {
  expect(root.size).toBeGreaterThan(50); // the reader sees the exports (else the rule would pass)
  expect(root.size).toBeLessThanOrEqual(120);
  expect(undocumented(root)).toEqual([]);
});

test('the provider face documents every name it exports', () => {
  expect(provider.size).toBeGreaterThan(50);
  expect(undocumented(provider)).toEqual([]);
});

test('a name is in both faces only when it is on the list of names an app and an adapter both hold', () => {
  expect([...root.keys()].filter((name) => provider.has(name)).sort()).toEqual(BOTH);
});

test('an adapter finds the request, the model and usage in /provider', () => {
  for (const name of [
    'ModelRequest',
    'ToolSpec',
    'AppendOnlyRequest',
    'LifecycleDelta',
    'ModelStreamPart',
    'addUsage',
  ]) {
    expect(provider.has(name), name).toBe(true);
  }
});
