import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      'node_modules',
      'test-results',
      'playwright-report',
      'src/server/db/migrations',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Imports flow one way: web → shared, server → shared; never web ↔ server, and shared imports neither.
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/web',
              from: './src/server',
              message: 'The web app talks to the server over HTTP only.',
            },
            { target: './src/server', from: './src/web', message: 'The server never imports web code.' },
            {
              target: './src/shared',
              from: ['./src/server', './src/web'],
              message: 'shared/ is isomorphic and imports nothing app-specific.',
            },
          ],
        },
      ],
      'import/no-cycle': ['error', { maxDepth: 10 }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
);
