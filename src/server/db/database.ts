import type { Config } from '../env';
import { connectDatabase, runMigrations, type Database } from './client';
import { startEmbeddedPostgres } from './embedded';

export interface OpenDatabase extends Database {
  embedded: boolean;
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR/pg. Either way the committed
 * migrations are applied before anything else touches the database.
 */
export async function openDatabase(
  config: Config,
  log: (message: string) => void = () => undefined,
): Promise<OpenDatabase> {
  let url = config.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const embedded = await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      port: config.EMBEDDED_PG_PORT,
      database: 'giftmart',
      log: config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? log : undefined,
    });
    url = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const database = connectDatabase(url, {
    max: config.DATABASE_POOL_SIZE,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  try {
    await runMigrations(database.db);
  } catch (error) {
    await database.close();
    await stopEmbedded?.();
    throw error;
  }
  return {
    ...database,
    embedded: Boolean(stopEmbedded),
    async close() {
      await database.close();
      await stopEmbedded?.();
    },
  };
}
