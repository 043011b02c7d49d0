import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts } from '../accounts/accounts.schema';
import { AppError } from '../../lib/app-error';
import type { AccountRow } from '../accounts/accounts.repository';
import { findAccountById } from '../accounts/accounts.repository';
import { checkLogo } from './images';
import type { Storage } from './storage';

/**
 * Replaces a business's logo: the new file is checked and stored first, then the account points at it,
 * then the old file is deleted. A refused file changes nothing; the old logo stays.
 */
export async function replaceLogo(
  deps: { db: Db; storage: Storage },
  businessId: string,
  upload: Buffer | undefined,
): Promise<AccountRow> {
  if (!upload || upload.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'Please choose an image file for the logo.', {
      details: { fieldErrors: { logo: ['Please choose an image file for the logo.'] } },
    });
  }
  const image = await checkLogo(upload);
  const previous = await findAccountById(deps.db, businessId);
  const key = await deps.storage.put(image.body, image.extension);
  let updated: AccountRow | undefined;
  try {
    [updated] = await deps.db
      .update(accounts)
      .set({ logoKey: key, updatedAt: sql`now()` })
      .where(eq(accounts.id, businessId))
      .returning();
  } catch (error) {
    await deps.storage.delete(key);
    throw error;
  }
  if (previous?.logoKey) await deps.storage.delete(previous.logoKey);
  return updated!;
}
