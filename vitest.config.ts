import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two workers even on two cores (Vitest's default leaves one core free): most of the
    // slow files wait on a server, a browser, tmux or PostgreSQL rather than on the CPU.
    maxWorkers: 2,
    // Test files share each worker's module graph instead of re-importing it per file (the
    // suite's CPU went mostly to re-importing). Safe while no test file mocks modules or
    // changes process state: test/suite-hygiene.test.ts keeps it that way.
    isolate: false,
  },
});
