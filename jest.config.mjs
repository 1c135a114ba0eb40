/**
 * One Jest run for the whole workspace, native ESM, TypeScript transpiled by SWC (type checking is
 * tsc's job in `pnpm typecheck`). Projects: shared rules, API integration (real HTTP on PGlite, and
 * on PostgreSQL when TEST_DATABASE_URL is set), and React components in jsdom.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'es6' },
  },
];

const common = {
  transform: { '^.+\\.(t|j)sx?$': swc },
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
};

export default {
  // Jest reads testTimeout only at the top level (a project's own value is ignored). API cases make
  // real HTTP calls, solve captchas and some start a server of their own: 5 s is too tight beside
  // other work on two cores. Suite set-up has its own, longer limit (SET_UP_TIMEOUT_MS in api/test/support).
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: 'scripts', testEnvironment: 'node', roots: ['<rootDir>/scripts'], testMatch: ['**/*.test.mjs'] },
    { ...common, displayName: 'shared', testEnvironment: 'node', roots: ['<rootDir>/shared'], testMatch: ['**/*.test.ts'] },
    {
      ...common,
      displayName: 'api',
      // The BIB reader's models run in a worker thread, outside Jest's sandbox (whose own Float32Array
      // fails onnxruntime-node's instanceof check), so the plain node environment serves.
      testEnvironment: 'node',
      roots: ['<rootDir>/api'],
      testMatch: ['**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'web',
      testEnvironment: 'jsdom',
      roots: [
        '<rootDir>/shell',
        '<rootDir>/mfe-storefront',
        '<rootDir>/mfe-account',
        '<rootDir>/mfe-partner',
        '<rootDir>/mfe-organiser',
        '<rootDir>/mfe-certificate',
      ],
      testMatch: ['**/*.test.tsx', '**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/scripts/jest.setup-dom.mjs'],
      moduleNameMapper: { '\\.(css|less)$': '<rootDir>/scripts/jest.style-stub.cjs' },
    },
  ],
};
