import type { Db } from '../db/client';
import type { Config } from '../env';

/** What every room's services need: the database (or a transaction) and the settings. */
export interface CoreDeps {
  db: Db;
  config: Config;
}
