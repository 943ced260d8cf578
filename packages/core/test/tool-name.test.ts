/**
 * One tool-name rule, exported for the packages that make names from outside text.
 */
import { describe, expect, test } from 'vitest';
import { isToolName, replaceToolNameChars, TOOL_NAME, TOOL_NAME_MAX_LENGTH } from '../src/provider.js';

describe('the tool-name rule', () => {
  test('a tool name is 1 to 64 letters, digits, _ or -', () => {
    expect(TOOL_NAME.source).toBe('^[a-zA-Z0-9_-]{1,64}$');
    expect(isToolName('add_to_cart')).toBe(true);
    expect(isToolName('a'.repeat(TOOL_NAME_MAX_LENGTH))).toBe(true);
    expect(isToolName('a'.repeat(TOOL_NAME_MAX_LENGTH + 1))).toBe(false);
    for (const bad of ['', 'repo.search', 'a b', 'naïve', 'x\n', null, 42])
      expect(isToolName(bad), String(bad)).toBe(false);
  });

  test('replaceToolNameChars replaces each character a name may not hold, or each run of them', () => {
    expect(replaceToolNameChars('repo.search/v2', '_')).toBe('repo_search_v2');
    expect(replaceToolNameChars('PDF  Tools!', '-', true)).toBe('PDF-Tools-');
    expect(isToolName(replaceToolNameChars('weird name ✓', '_'))).toBe(true);
  });

  test('the rule is stateless: testing twice gives the same answer', () => {
    expect([isToolName('ok'), isToolName('ok')]).toEqual([true, true]);
  });
});
