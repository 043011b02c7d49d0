import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // One file per room (db/schema/<room>.ts); only that room's repositories write its tables.
  schema: './src/server/db/schema/*.ts',
  out: './src/server/db/migrations',
  strict: true,
  verbose: true,
});
