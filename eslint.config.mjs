import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The data layer (docs/add-a-module.md, "Data access"): repositories hold every statement, entities and
// migrations say what the schema is, module files register their own entities, src/database holds the
// connection and the transaction helper. Everything else asks a repository, or `Transactions`.
const DATA_LAYER = ['src/**/*.repository.ts', 'src/database/**', 'src/**/*.entity.ts', 'src/**/*.module.ts', 'src/oauth/entities/**'];
const DATA_LAYER_MESSAGE = 'TypeORM stays in the data layer: put the statement in the table’s *.repository.ts and run transactions through Transactions (docs/add-a-module.md, "Data access").';

export default tseslint.config(
  { ignores: ['dist/', '.test-build/', 'node_modules/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Specs and e2e suites read and write rows directly to set up and check what the code did.
    files: ['src/**/*.ts'],
    ignores: [...DATA_LAYER, 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'typeorm', message: DATA_LAYER_MESSAGE },
            { name: '@nestjs/typeorm', message: DATA_LAYER_MESSAGE },
          ],
          patterns: [
            { group: ['typeorm/*'], message: DATA_LAYER_MESSAGE },
            // Statements outside a repository, or a transaction on a connection a service would have to hold.
            { group: ['**/database/transaction', '**/database/prepared-query', '**/database/owned-insert', '**/database/sql'], importNames: ['inTransaction', 'statements', 'preparedQuery', 'insertOwned', 'param', 'params'], message: DATA_LAYER_MESSAGE },
          ],
        },
      ],
    },
  },
);
