import { sql } from 'drizzle-orm';
import { customType, uuid } from 'drizzle-orm/pg-core';

/** A 64-bit transaction id (PostgreSQL's xid8), read as its decimal text. */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The id of a row in an append-only history (ADR 026): a version 7 UUID, whose first 48 bits are the time in
 * milliseconds (`uuid_v7()`, migration 0019), so a new row's id and the ids that point at it land at one end
 * of their indexes instead of anywhere in them.
 */
export const timeOrderedId = () =>
  uuid('id')
    .primaryKey()
    .default(sql`uuid_v7()`);
