/**
 * What the app needs from a payout provider: resolve the name on a bank account, send a transfer, and learn
 * its final state (by webhook or by asking). Implementations: the built-in sandbox and Paystack.
 */
export interface Transfer {
  /** Our unique reference; a provider refuses a second transfer with the same one. */
  reference: string;
  amount: bigint;
  currency: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  reason: string;
}

export type TransferState =
  | { status: 'pending'; transferCode?: string }
  | { status: 'success'; transferCode?: string }
  | { status: 'failed'; reason: string; transferCode?: string }
  /** The provider sent the money back, possibly after reporting success (Paystack's transfer.reversed). */
  | { status: 'reversed'; reason: string; transferCode?: string };

export type TransferEvent =
  | { type: 'transfer.success'; reference: string }
  | { type: 'transfer.failed'; reference: string; reason: string }
  | { type: 'transfer.reversed'; reference: string; reason: string }
  | { type: 'ignored'; event: string };

export interface PayoutProvider {
  readonly name: 'sandbox' | 'paystack';
  /** The account holder's name, or null when the bank has no such account. */
  resolveAccount(bankCode: string, accountNumber: string): Promise<{ accountName: string } | null>;
  transfer(transfer: Transfer): Promise<TransferState>;
  /** The transfer's state now (for transfers whose outcome was not yet reported). */
  checkTransfer(reference: string): Promise<TransferState>;
  /** Verifies a webhook's signature and reads it; throws on a bad signature. */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): TransferEvent;
}
