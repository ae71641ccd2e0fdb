import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp, UpdatedAt } from "./columns";

/** The coin ledger: wallets and their log, escrows, purchases of coins and payouts. */

export interface CoinWalletsTable {
  user_id: string;
  purchased: ColumnType<number, number | undefined, number>;
  earned: ColumnType<number, number | undefined, number>;
  updated_at: UpdatedAt;
}

export interface CoinTransactionsTable {
  id: Generated<number>;
  user_id: string;
  kind: string;
  amount: number;
  purchased_after: number;
  earned_after: number;
  fee: ColumnType<number, number | undefined, never>;
  reference: string;
  created_at: CreatedAt;
}

export type EscrowStatus = "held" | "released" | "refunded";
export interface CoinEscrowsTable {
  reference: string;
  payer_id: string;
  payee_id: string;
  purchased: number;
  earned: number;
  status: ColumnType<EscrowStatus, EscrowStatus | undefined, EscrowStatus>;
  created_at: CreatedAt;
  settled_at: Timestamp | null;
}

export type CoinOrderStatus = "pending" | "paid" | "failed" | "expired";
export type PaymentProvider = "test" | "stripe";
export interface CoinOrdersTable {
  id: Generated<number>;
  user_id: string;
  package_id: number;
  coins: number;
  price_jpy: number;
  provider: PaymentProvider;
  provider_ref: string | null;
  checkout_url: string | null;
  status: ColumnType<CoinOrderStatus, CoinOrderStatus | undefined, CoinOrderStatus>;
  idempotency_key: string;
  created_at: CreatedAt;
  settled_at: Timestamp | null;
}

export interface PaymentEventsTable {
  id: string;
  provider: PaymentProvider;
  type: string;
  received_at: CreatedAt;
}

export type PayoutStatus = "requested" | "held" | "paid" | "rejected";
export type BankAccountType = "ordinary" | "checking";
export interface PayoutRequestsTable {
  id: Generated<string>;
  seller_id: string;
  coins: number;
  yen_amount: number;
  bank_name: string;
  branch_name: string;
  account_type: BankAccountType;
  account_number: string;
  account_holder: string;
  status: ColumnType<PayoutStatus, PayoutStatus | undefined, PayoutStatus>;
  idempotency_key: string;
  created_at: CreatedAt;
  decided_at: Timestamp | null;
}
