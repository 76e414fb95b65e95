// @ts-check
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import importX from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {ignores: ['dist/', '.tsbuild/', 'node_modules/', 'coverage/', '.tapir-tmp/']},
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {project: ['tsconfig.test.json'], tsconfigRootDir: import.meta.dirname},
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', {fixStyle: 'separate-type-imports'}],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_'}],
      'import-x/no-cycle': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/order': [
        'error',
        {groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'], alphabetize: {order: 'asc', caseInsensitive: true}},
      ],
      'prefer-arrow-callback': 'error',
      'object-shorthand': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // A `!` asserts what the code could check instead; npm run lint allows at most 20 of them.
    files: ['src/**/*.ts'],
    ignores: ['src/sim/**'],
    rules: {'@typescript-eslint/no-non-null-assertion': 'warn'},
  },
  {
    // Tests read whatever JSON the app or a file holds.
    files: ['test/**/*.ts'],
    rules: {'@typescript-eslint/no-explicit-any': 'off'},
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
    plugins: {'import-x': importX},
    rules: {
      'import-x/order': [
        'error',
        {groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'], alphabetize: {order: 'asc', caseInsensitive: true}},
      ],
    },
  },
  {
    // The executable and the bundle it runs a verb from are CommonJS: no ES module loader starts.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        process: 'readonly',
        Buffer: 'readonly',
        require: 'readonly',
        module: 'writable',
        __filename: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: {'@typescript-eslint/no-require-imports': 'off'},
  },
  prettier,
)
