import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// ── The house's import rules (docs/decisions/009-rooms-by-product-noun.md) ──────────────────────────────
// Rooms are named after product nouns, with the same cut on the server and the web. A room may use another
// room only along these lists (they form a DAG; import/no-cycle backs them up), and on the server only
// through that room's services (`*.service.ts`). Nothing imports legacy; only app/ wires rooms together.

/** Server room → the rooms whose services it may call. */
const serverRooms = {
  notifications: [],
  wallet: ['notifications'],
  accounts: ['wallet', 'notifications'],
  catalogue: ['accounts'],
  cards: ['accounts', 'catalogue', 'notifications'],
  orders: ['accounts', 'catalogue', 'cards', 'wallet', 'notifications'],
  legacy: ['accounts', 'catalogue', 'cards', 'orders', 'wallet', 'notifications'],
};

/** Web feature → the features whose files it may import (the web has no service files). */
const webFeatures = {
  accounts: ['catalogue', 'wallet'],
  catalogue: [],
  orders: ['catalogue', 'cards'],
  cards: ['accounts', 'catalogue'],
  wallet: ['catalogue'],
  notifications: [],
  site: [],
  legacy: [],
};

const sideZones = [
  { target: './src/web', from: './src/server', message: 'The web app talks to the server over HTTP only.' },
  { target: './src/server', from: './src/web', message: 'The server never imports web code.' },
  {
    target: './src/shared',
    from: ['./src/server', './src/web'],
    message: 'shared/ is isomorphic and imports nothing app-specific.',
  },
];

const server = './src/server';
const serverZones = [
  {
    target: [`${server}/db`, `${server}/lib`, `${server}/plugins`, `${server}/env.ts`],
    from: [`${server}/modules`, `${server}/app.ts`, `${server}/server.ts`],
    message:
      'db, lib and plugins sit below the rooms: they import no room (app.ts hands them what they need).',
  },
  {
    target: `${server}/modules`,
    from: [`${server}/app.ts`, `${server}/server.ts`],
    message: 'Rooms never import the app that wires them.',
  },
  {
    target: `${server}/modules/**/*.{service,routes}.ts`,
    from: `${server}/db/schema`,
    message:
      'Only repositories (and provider adapters with their own tables) write SQL; call the repository.',
  },
  ...Object.entries(serverRooms).flatMap(([room, uses]) =>
    Object.keys(serverRooms)
      .filter((other) => other !== room)
      .map((other) =>
        uses.includes(other)
          ? {
              target: `${server}/modules/${room}`,
              from: `${server}/modules/${other}/**`,
              except: [`**/modules/${other}/*.service.ts`],
              message: `${room} uses ${other} only through ${other}'s services (*.service.ts).`,
            }
          : {
              target: `${server}/modules/${room}`,
              from: `${server}/modules/${other}`,
              message: `${room} may not import ${other} (eslint.config.js lists which rooms a room may use).`,
            },
      ),
  ),
];

const web = './src/web';
const webZones = [
  {
    target: [`${web}/components`, `${web}/lib`],
    from: [`${web}/features`, `${web}/app`],
    message: 'components/ and lib/ are below the features: they import no feature and not the app.',
  },
  {
    target: `${web}/features`,
    from: `${web}/app`,
    message: 'Features never import the app that routes them.',
  },
  ...Object.entries(webFeatures).flatMap(([feature, uses]) =>
    Object.keys(webFeatures)
      .filter((other) => other !== feature && !uses.includes(other))
      .map((other) => ({
        target: `${web}/features/${feature}`,
        from: `${web}/features/${other}`,
        message: `${feature} may not import ${other} (eslint.config.js lists which features a feature may use).`,
      })),
  ),
];

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
      // Imports flow one way (docs/decisions/009-rooms-by-product-noun.md); the zones are generated below.
      'import/no-restricted-paths': ['error', { zones: [...sideZones, ...serverZones, ...webZones] }],
      'import/no-cycle': ['error', { maxDepth: 10 }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Tests drive the whole app (app.inject) and may reach into any room; only the sides stay apart.
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'import/no-restricted-paths': ['error', { zones: sideZones }] },
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
);
