import { existsSync } from 'node:fs';
import { loadConfig } from '../env';
import { openDatabase } from './database';

/** `npm run db:migrate`: applies the committed migrations (start-up does this too) and exits. */
if (existsSync('.env')) process.loadEnvFile('.env');
const database = await openDatabase(loadConfig());
await database.close();
process.stdout.write('Migrations applied.\n');
