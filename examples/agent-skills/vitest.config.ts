import { defineConfig } from 'vitest/config';

export default defineConfig({
  // globals: @skilltree/testing unmounts every rendered agent after each test.
  test: { include: ['test/**/*.test.{ts,tsx}'], globals: true },
});
