import tseslint from 'typescript-eslint';
import jest from 'eslint-plugin-jest';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'test-artifacts/', 'jest.config.js', 'clients/typescript/src/schema.d.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['functions/shared/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', { patterns: [{ group: ['@aws-sdk/*', 'aws-lambda', '@middy/*', '**/adapters/*', '**/http/*'], message: 'Domain modules stay free of AWS, HTTP and adapters.' }] }],
    },
  },
  {
    files: ['test/**/*.ts'],
    ...jest.configs['flat/recommended'],
    rules: {
      ...jest.configs['flat/recommended'].rules,
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*', '*.hasResourceProperties', '*.hasResource', '*.resourceCountIs', '*.resourcePropertiesCountIs'] }],
    },
  },
);
