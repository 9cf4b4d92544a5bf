import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { passedFailedReporter } from './test/reporter.js';

// vitest 4+ ignores workspace files: projects are declared here (DESIGN.md, known traps).
export default defineConfig({
  test: {
    // Both cores. vitest's default in a run is one worker fewer than the cores, so on the
    // 2-core CI machine every file ran one after another (the files' times summed to the
    // wall time); two at once took the run from 1023 s to 873 s there. e2e files still run
    // one at a time (their project says so), and the property suite is bounded by time.
    maxWorkers: 2,
    reporters: ['default', passedFailedReporter()],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          exclude: ['test/unit/renderer/**'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // React components and the store, in jsdom, with React Testing Library.
        plugins: [react()],
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['test/unit/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['test/unit/renderer/setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // The real web host and fake model server, driven in Debian's Chromium (playwright-core).
        // Needs the renderer built first (npm run build:renderer; npm test does it).
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // Generated histories against a model of consent (issue 9); a fixed seed, about 4 minutes (a loaded machine checks a prefix).
        test: {
          name: 'property',
          environment: 'node',
          include: ['test/property/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
