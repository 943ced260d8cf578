/**
 * Queries over the request, built the way `@testing-library/dom` builds them: each family
 * (`ByTool`, `ByText`, `BySkill`) is one `queryAll` function, and `buildQueries` derives
 * `getBy`, `getAllBy`, `queryBy`, `queryAllBy`, `findBy` and `findAllBy` from it.
 */
import { prettyRequest } from './pretty.js';
import {
  type Scope,
  type SkillView,
  sourceOfSkill,
  type TextMatch,
  type ToolMatch,
  tagSkill,
  type View,
  type ViewLine,
  type ViewSource,
} from './view.js';
import { type WaitForOptions, waitFor } from './wait-for.js';

/**
 * What a query looks for. A string matches a whole name or line (after trimming and collapsing
 * whitespace); a RegExp matches anywhere in it; a function decides for itself.
 */
export type Matcher<T> = string | RegExp | ((text: string, item: T) => boolean);

/** Options of every query. */
export interface MatchOptions {
  /**
   * `true` (default): a string matcher must equal the whole (trimmed) name or line, case-sensitively.
   * `false`: a string matcher matches any part of it, ignoring case. RegExps and functions are unaffected.
   */
  exact?: boolean;
  /** Turns each name or line into the text a string matcher is compared with. Default: trim, collapse whitespace. */
  normalizer?: (text: string) => string;
}

/** The default normalizer: trims and collapses runs of whitespace into one space. */
export function defaultNormalizer(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function matches<T>(text: string, item: T, matcher: Matcher<T>, options: MatchOptions = {}): boolean {
  if (typeof matcher === 'function') return matcher(text, item);
  if (matcher instanceof RegExp) {
    matcher.lastIndex = 0;
    return matcher.test(text);
  }
  const normalize = options.normalizer ?? defaultNormalizer;
  const have = normalize(text);
  const want = normalize(matcher);
  return options.exact === false ? have.toLowerCase().includes(want.toLowerCase()) : have === want;
}

/** A matcher as the error messages print it. */
export function describeMatcher<T>(matcher: Matcher<T>): string {
  if (typeof matcher === 'function') return 'matching a function';
  if (matcher instanceof RegExp) return `matching ${matcher}`;
  return JSON.stringify(matcher);
}

function scopeText(scope: Scope): string {
  return scope.skill ? ` in skill "${scope.skill}"` : '';
}

// ───────────────────────────── the three queryAll functions ─────────────────────────────

/** Every tool of the request (in `scope`) whose name matches. */
export function queryAllTools(view: View, scope: Scope, matcher: Matcher<ToolMatch>, options?: MatchOptions) {
  return view.tools.filter(
    (tool) => (!scope.skill || tool.skill === scope.skill) && matches(tool.name, tool, matcher, options),
  );
}

function scopedLines(view: View, scope: Scope): ViewLine[] {
  return scope.skill ? view.lines.filter((line) => line.skill === scope.skill) : view.lines;
}

/**
 * Every line of the system prompt and `<current_context>` (in `scope`) that matches. A string with
 * line breaks matches consecutive lines of one section, each compared like a one-line string.
 */
export function queryAllText(view: View, scope: Scope, matcher: Matcher<TextMatch>, options?: MatchOptions) {
  const lines = scopedLines(view, scope);
  const out: TextMatch[] = [];
  if (typeof matcher === 'string' && matcher.trim().includes('\n')) {
    const wanted = matcher
      .trim()
      .split('\n')
      .filter((line) => line.trim());
    for (let i = 0; i + wanted.length <= lines.length; i++) {
      const run = lines.slice(i, i + wanted.length);
      const sameSection = run.every((l) => l.source === run[0].source && l.skill === run[0].skill);
      if (sameSection && run.every((line, k) => matches(line.text, line, wanted[k], options))) {
        out.push({ text: run.map((l) => l.text).join('\n'), source: run[0].source, skill: run[0].skill });
      }
    }
    return out;
  }
  for (const line of lines) {
    const item: TextMatch = { text: line.text, source: line.source, skill: line.skill };
    if (matches(line.text, item, matcher, options)) out.push(item);
  }
  return out;
}

/** Every skill of the catalog (in `scope`: only that skill) whose name matches. */
export function queryAllSkills(view: View, scope: Scope, matcher: Matcher<SkillView>, options?: MatchOptions) {
  return view.skills.filter(
    (skill) => (!scope.skill || skill.name === scope.skill) && matches(skill.name, skill, matcher, options),
  );
}

// ───────────────────────────── errors ─────────────────────────────

function withRequest(message: string, view: View): Error {
  const printed = view.unmounted ? '(the agent is unmounted: nothing is rendered)' : prettyRequest(view.request);
  const error = new Error(`${message}\n\n${printed}`);
  error.name = 'SkilltreeQueryError';
  return error;
}

function list(names: string[]): string {
  return names.length > 0 ? names.join(', ') : 'none';
}

function notLoadedNote(view: View, scope: Scope): string {
  if (!scope.skill) return '';
  const skill = view.skills.find((s) => s.name === scope.skill);
  if (!skill) return ` The catalog has no skill "${scope.skill}" now.`;
  return skill.loaded ? '' : ` Skill "${scope.skill}" is not loaded: read it first.`;
}

type Describe<T> = (view: View, scope: Scope, matcher: Matcher<T>, found: T[]) => string;

const missingTool: Describe<ToolMatch> = (view, scope, matcher) =>
  `Unable to find a tool ${describeMatcher(matcher)}${scopeText(scope)}. ` +
  `Tools in the request: ${list(view.tools.filter((t) => !scope.skill || t.skill === scope.skill).map((t) => t.name))}.` +
  notLoadedNote(view, scope);

const multipleTools: Describe<ToolMatch> = (_view, scope, matcher, found) =>
  `Found ${found.length} tools ${describeMatcher(matcher)}${scopeText(scope)}: ${list(found.map((t) => t.name))}. ` +
  'Use a more specific matcher, or *AllByTool.';

const missingText: Describe<TextMatch> = (view, scope, matcher) =>
  `Unable to find text ${describeMatcher(matcher)}${scope.skill ? ` in the context of skill "${scope.skill}"` : ' in the system prompt or <current_context>'}. ` +
  (typeof matcher === 'string'
    ? 'A string matches a whole line (trimmed); pass a RegExp or { exact: false } to match part of a line.'
    : '') +
  notLoadedNote(view, scope);

const multipleText: Describe<TextMatch> = (_view, scope, matcher, found) =>
  `Found ${found.length} lines ${describeMatcher(matcher)}${scopeText(scope)}:\n${found.map((m) => `  ${m.text}`).join('\n')}\n` +
  'Use a more specific matcher, or *AllByText.';

const missingSkill: Describe<SkillView> = (view, scope, matcher) =>
  `Unable to find a skill ${describeMatcher(matcher)}${scopeText(scope)}. ` +
  `Skills in the catalog: ${list(view.skills.map((s) => s.name))}.`;

const multipleSkills: Describe<SkillView> = (_view, _scope, matcher, found) =>
  `Found ${found.length} skills ${describeMatcher(matcher)}: ${list(found.map((s) => s.name))}. ` +
  'Use a more specific matcher, or *AllBySkill.';

// ───────────────────────────── buildQueries ─────────────────────────────

type QueryAll<T> = (view: View, scope: Scope, matcher: Matcher<T>, options?: MatchOptions) => T[];

/** The six queries of one family, bound to a source and a scope. */
export interface QueryFamily<T> {
  queryAll(matcher: Matcher<T>, options?: MatchOptions): T[];
  query(matcher: Matcher<T>, options?: MatchOptions): T | null;
  getAll(matcher: Matcher<T>, options?: MatchOptions): T[];
  get(matcher: Matcher<T>, options?: MatchOptions): T;
  findAll(matcher: Matcher<T>, options?: MatchOptions, waitForOptions?: WaitForOptions): Promise<T[]>;
  find(matcher: Matcher<T>, options?: MatchOptions, waitForOptions?: WaitForOptions): Promise<T>;
}

/**
 * Derives a query family from its `queryAll`, as `@testing-library/dom`'s `buildQueries` does:
 * `queryBy` throws when several match, `getBy`/`getAllBy` throw when none match (the error prints
 * the request), `findBy`/`findAllBy` retry `getBy`/`getAllBy` with {@link waitFor}.
 */
export function buildQueries<T>(
  queryAll: QueryAll<T>,
  getMissingError: Describe<T>,
  getMultipleError: Describe<T>,
  source: ViewSource,
  scope: Scope,
): QueryFamily<T> {
  const all = (matcher: Matcher<T>, options?: MatchOptions) => {
    const view = source();
    return { view, found: queryAll(view, scope, matcher, options) };
  };
  const family: QueryFamily<T> = {
    queryAll: (matcher, options) => all(matcher, options).found,
    query(matcher, options) {
      const { view, found } = all(matcher, options);
      if (found.length > 1) throw withRequest(getMultipleError(view, scope, matcher, found), view);
      return found[0] ?? null;
    },
    getAll(matcher, options) {
      const { view, found } = all(matcher, options);
      if (found.length === 0) throw withRequest(getMissingError(view, scope, matcher, found), view);
      return found;
    },
    get(matcher, options) {
      const { view, found } = all(matcher, options);
      if (found.length === 0) throw withRequest(getMissingError(view, scope, matcher, found), view);
      if (found.length > 1) throw withRequest(getMultipleError(view, scope, matcher, found), view);
      return found[0];
    },
    findAll: (matcher, options, waitForOptions) => waitFor(() => family.getAll(matcher, options), waitForOptions),
    find: (matcher, options, waitForOptions) => waitFor(() => family.get(matcher, options), waitForOptions),
  };
  return family;
}

/** Every query, bound to an agent (or, through {@link within}, to one of its skills). */
export interface BoundQueries {
  /** The tool whose name matches. Throws (printing the request) when none or several match. */
  getByTool(matcher: Matcher<ToolMatch>, options?: MatchOptions): ToolMatch;
  /** Every tool whose name matches. Throws (printing the request) when none match. */
  getAllByTool(matcher: Matcher<ToolMatch>, options?: MatchOptions): ToolMatch[];
  /** The tool whose name matches, or `null`. Throws when several match. */
  queryByTool(matcher: Matcher<ToolMatch>, options?: MatchOptions): ToolMatch | null;
  /** Every tool whose name matches; maybe none. */
  queryAllByTool(matcher: Matcher<ToolMatch>, options?: MatchOptions): ToolMatch[];
  /** Waits (see {@link waitFor}) until exactly one tool matches, and resolves with it. */
  findByTool(matcher: Matcher<ToolMatch>, options?: MatchOptions, waitForOptions?: WaitForOptions): Promise<ToolMatch>;
  /** Waits until at least one tool matches, and resolves with them all. */
  findAllByTool(
    matcher: Matcher<ToolMatch>,
    options?: MatchOptions,
    waitForOptions?: WaitForOptions,
  ): Promise<ToolMatch[]>;

  /** The line of the system prompt or `<current_context>` that matches. Throws when none or several match. */
  getByText(matcher: Matcher<TextMatch>, options?: MatchOptions): TextMatch;
  /** Every matching line. Throws (printing the request) when none match. */
  getAllByText(matcher: Matcher<TextMatch>, options?: MatchOptions): TextMatch[];
  /** The matching line, or `null`. Throws when several match. */
  queryByText(matcher: Matcher<TextMatch>, options?: MatchOptions): TextMatch | null;
  /** Every matching line; maybe none. */
  queryAllByText(matcher: Matcher<TextMatch>, options?: MatchOptions): TextMatch[];
  /** Waits until exactly one line matches, and resolves with it. */
  findByText(matcher: Matcher<TextMatch>, options?: MatchOptions, waitForOptions?: WaitForOptions): Promise<TextMatch>;
  /** Waits until at least one line matches, and resolves with them all. */
  findAllByText(
    matcher: Matcher<TextMatch>,
    options?: MatchOptions,
    waitForOptions?: WaitForOptions,
  ): Promise<TextMatch[]>;

  /** The catalog skill whose name matches (loaded or not). Throws when none or several match. */
  getBySkill(matcher: Matcher<SkillView>, options?: MatchOptions): SkillView;
  /** Every catalog skill whose name matches. Throws when none match. */
  getAllBySkill(matcher: Matcher<SkillView>, options?: MatchOptions): SkillView[];
  /** The catalog skill whose name matches, or `null`. Throws when several match. */
  queryBySkill(matcher: Matcher<SkillView>, options?: MatchOptions): SkillView | null;
  /** Every catalog skill whose name matches; maybe none. */
  queryAllBySkill(matcher: Matcher<SkillView>, options?: MatchOptions): SkillView[];
  /** Waits until exactly one skill matches, and resolves with it. */
  findBySkill(matcher: Matcher<SkillView>, options?: MatchOptions, waitForOptions?: WaitForOptions): Promise<SkillView>;
  /** Waits until at least one skill matches, and resolves with them all. */
  findAllBySkill(
    matcher: Matcher<SkillView>,
    options?: MatchOptions,
    waitForOptions?: WaitForOptions,
  ): Promise<SkillView[]>;

  /** Every tool of the request (or of the skill, inside {@link within}), in request order. */
  getAllTools(): ToolMatch[];
}

/** Binds every query to a source and a scope. */
export function bindQueries(source: ViewSource, scope: Scope = {}): BoundQueries {
  const tagged: ViewSource = () => {
    const view = source();
    for (const skill of view.skills) tagSkill(skill, source);
    return view;
  };
  const tool = buildQueries(queryAllTools, missingTool, multipleTools, tagged, scope);
  const text = buildQueries(queryAllText, missingText, multipleText, tagged, scope);
  const skill = buildQueries(queryAllSkills, missingSkill, multipleSkills, tagged, scope);
  return {
    getByTool: tool.get,
    getAllByTool: tool.getAll,
    queryByTool: tool.query,
    queryAllByTool: tool.queryAll,
    findByTool: tool.find,
    findAllByTool: tool.findAll,
    getByText: text.get,
    getAllByText: text.getAll,
    queryByText: text.query,
    queryAllByText: text.queryAll,
    findByText: text.find,
    findAllByText: text.findAll,
    getBySkill: skill.get,
    getAllBySkill: skill.getAll,
    queryBySkill: skill.query,
    queryAllBySkill: skill.queryAll,
    findBySkill: skill.find,
    findAllBySkill: skill.findAll,
    getAllTools: () => {
      const view = source();
      return view.tools.filter((t) => !scope.skill || t.skill === scope.skill);
    },
  };
}

/**
 * Queries scoped to one skill: its tools, its part of `<current_context>`. Takes a skill from
 * `agent.getSkill(name)` or a `*BySkill` query. The scoped queries read the live request, so they
 * see later changes (and report when the skill is no longer loaded).
 *
 * @example
 * const shopping = within(agent.getSkill('shopping'));
 * shopping.getByTool('add_to_cart');
 * shopping.getByText('Cart: empty');
 */
export function within(skill: SkillView): BoundQueries {
  const source = sourceOfSkill(skill);
  if (!source) {
    throw new Error(
      'within() needs a skill returned by agent.getSkill(name) or a *BySkill query (it remembers which agent it came from).',
    );
  }
  return bindQueries(source, { skill: skill.name });
}
