// The lint of `npm test` (scripts/static-checks.mjs runs it beside Prettier and tsc), over
// src, test, bench and scripts: ESLint's and typescript-eslint's recommended rules, and the
// rules that need the types: a promise nobody awaits or handles, an await of something that
// is not a promise, a switch over a union that misses a member.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Outside `src/cli`, no code reads the environment, ends the process or writes to the terminal. */
const PROCESS_IN_CLI_ONLY = ['env', 'exit', 'stdout', 'stderr'].map((property) => ({
  object: 'process',
  property,
  message: `process.${property} belongs in src/cli: pass what the code needs in`,
}));
const CONSOLE_IN_CLI_ONLY = { name: 'console', message: 'only src/cli writes to the terminal' };

/**
 * Where each capability may be reached for (a test lints deliberate breaches with these).
 * The core is pure: no clock, no randomness, no network, no process; the other layers get
 * the environment, exits and the terminal from the CLI.
 */
export const capabilityRules = [
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/index.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': ['error', ...PROCESS_IN_CLI_ONLY],
      'no-restricted-globals': ['error', CONSOLE_IN_CLI_ONLY],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        CONSOLE_IN_CLI_ONLY,
        ...['process', 'fetch', 'performance'].map((name) => ({ name, message: `the core is pure: no ${name}` })),
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date']", message: 'the core has no clock: pass the time in' },
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'the core has no clock: pass the time in',
        },
        {
          selector: "MemberExpression[object.name='Math'][property.name='random']",
          message: 'the core draws from a seeded source (core/seeded-random.ts), never Math.random',
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'bench/.out/', 'test/.out/', 'tmp/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Terminal escapes and control characters are matched on purpose (stripping them from
      // outside text, measuring coloured lines).
      'no-control-regex': 'off',
      // `_name` is how a parameter or a destructured field is said to be unused on purpose
      // (the compiler's noUnusedParameters reads it the same way).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    // One program for the whole tree, from the same tsconfig.json that tsc checks.
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // Tests read JSON documents and fixture rows loosely, and match aligned columns with the
    // spaces as printed.
    files: ['**/*.test.ts', 'test/**/*.ts', '**/test-support/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-regex-spaces': 'off' },
  },
  ...capabilityRules,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
