// Registers toHaveTool, toHaveLoadedSkill, toHaveActiveSkill and toHaveContext.
import '@skilltree/testing/vitest';

// The message readers every example's tests share.
export { ok, own, text } from '@skilltree/test-kit';
