import type { Account } from '../../../shared/accounts/schemas';
import type { AccountRow } from './accounts.repository';

/** The public picture of an account: never the password hash. */
export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    role: row.role,
    name: row.name,
    email: row.email,
    username: row.username,
    phoneNumber: row.phone,
    logoUrl: row.logoKey ? `/uploads/${row.logoKey}` : null,
    createdAt: row.createdAt.toISOString(),
  };
}
