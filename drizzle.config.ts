import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each room owns its slice of the schema (modules/<room>/<room>.schema.ts); infrastructure tables live in db/.
  schema: ['./src/server/db/*.schema.ts', './src/server/modules/*/*.schema.ts'],
  out: './src/server/db/migrations',
  strict: true,
  verbose: true,
});
