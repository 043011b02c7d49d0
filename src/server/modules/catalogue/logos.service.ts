import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { findAccount, setBusinessLogo, type AccountRow } from '../accounts/accounts.service';
import { checkLogo } from './images';
import { invalidateCatalogueCaches } from './catalogue-cache';
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
  const previous = await findAccount(deps.db, businessId);
  const key = await deps.storage.put(image.body, image.extension);
  let updated: AccountRow | undefined;
  try {
    updated = await setBusinessLogo(deps.db, businessId, key);
  } catch (error) {
    await deps.storage.delete(key);
    throw error;
  }
  invalidateCatalogueCaches();
  if (previous?.logoKey) await deps.storage.delete(previous.logoKey);
  return updated!;
}
