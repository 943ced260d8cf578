import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** `pnpm dev` proxies the API to the server (`pnpm dev:server`, port 3001). */
const server = 'http://127.0.0.1:3001';

export default defineConfig({
  plugins: [react()],
  // The ai package (used by useChat) is most of the bundle.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1_500 },
  server: { proxy: { '/api': server, '/login': server, '/logout': server, '/me': server } },
  test: { include: ['test/**/*.test.{ts,tsx}'], testTimeout: 60_000, hookTimeout: 120_000 },
});
