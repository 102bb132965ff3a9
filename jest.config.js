/**
 * Three layers: pure unit tests, CDK assertions, and tests that need the local stack (started once, in globalSetup).
 * ts-jest only transpiles (isolatedModules): `npm run typecheck` is where types are checked, once, for everything.
 */
const base = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj)s$': ['ts-jest', { tsconfig: { isolatedModules: true, rootDir: '.', allowJs: true, module: 'commonjs', target: 'es2022', esModuleInterop: true, resolveJsonModule: true } }],
  },
  // @middy/core ships ESM only: let ts-jest turn it into CommonJS for Jest.
  transformIgnorePatterns: ['/node_modules/(?!@middy/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};

module.exports = {
  testTimeout: 30_000,
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...base, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    {
      ...base,
      displayName: 'stack',
      testMatch: ['<rootDir>/test/{integration,e2e,browser}/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
