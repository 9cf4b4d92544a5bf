import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, "tests: N passed, N failed, N skipped", so that CI
 * (which reads runners' closing lines) can tell a run that tested something from one
 * that tested nothing.
 */
export function passedFailedReporter(): Reporter {
  return {
    onTestRunEnd(modules: ReadonlyArray<TestModule>) {
      let passed = 0;
      let failed = 0;
      let skipped = 0;
      for (const mod of modules) {
        for (const test of mod.children.allTests()) {
          const state = test.result().state;
          if (state === 'passed') passed++;
          else if (state === 'failed') failed++;
          else skipped++;
        }
        if (mod.state() === 'failed' && !mod.ok()) failed += mod.children.size === 0 ? 1 : 0;
      }
      process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    },
  };
}
