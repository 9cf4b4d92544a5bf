import { defineConfig } from 'vitest/config';
import { passedFailedReporter } from './test/reporter.js';

// vitest 4+ ignores workspace files: projects are declared here (DESIGN.md, known traps).
export default defineConfig({
  test: {
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
    ],
  },
});
