import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp, UpdatedAt } from "./columns";

/**
 * The embedded auth server's accounts, sessions and sign-in flows (server/auth/, its queries in app/models/auth/), and
 * its rate limits.
 */

export interface AuthUsersTable {
  id: Generated<string>;
  email: string;
  /** Null for an account made by signing in with Discord, until it sets a password (migration 0018). */
  password_hash: string | null;
  user_metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** GoTrue's raw_app_meta_data, which its owner cannot change: the operators' `roles` (migration 0034). */
  app_metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  last_sign_in_at: Timestamp | null;
  /** Null until the address is confirmed (only asked for when AUTH_CONFIRM_EMAIL=true). */
  email_confirmed_at: Timestamp | null;
  /** Set when the account left (退会): the row stays for its sessions' history, its address freed. */
  deleted_at: Timestamp | null;
  /** When a link mailed to the address was followed (or Discord vouched for it at sign-up): it may be linked by e-mail. */
  email_proven_at: Timestamp | null;
}

export type IdentityProvider = "discord";

/** A way to sign in from another provider, as GoTrue keeps it (migration 0018). */
export interface AuthIdentitiesTable {
  id: Generated<string>;
  user_id: string;
  provider: IdentityProvider;
  /** The provider's id of the person (Discord's user id). */
  provider_id: string;
  identity_data: ColumnType<Record<string, unknown>, string | undefined, string>;
  email: string | null;
  last_sign_in_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One OAuth sign-in or link in progress, then its one-time auth code (migration 0018). */
export interface AuthFlowStatesTable {
  id: Generated<string>;
  state_hash: string;
  provider: IdentityProvider;
  code_challenge: string;
  code_challenge_method: "s256" | "plain";
  redirect_to: string;
  provider_code_verifier: string;
  link_user_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  state_used_at: Timestamp | null;
  auth_code_hash: string | null;
  user_id: string | null;
  auth_code_used_at: Timestamp | null;
}

/** A Discord server a user is in, as of their last Discord sign-in (migration 0018). */
export interface DiscordGuildsTable {
  user_id: string;
  guild_id: string;
  identity_id: string;
  name: string;
  icon: string | null;
}

export interface AuthSessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: CreatedAt;
  refreshed_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  /** How the session began: "password", "signup", "recovery", "email_change", "signup_confirm". */
  method: ColumnType<string, string | undefined, string>;
  /** The session's assurance level: aal2 once a factor was verified in it (migration 0030). */
  aal: ColumnType<AuthAssuranceLevel, AuthAssuranceLevel | undefined, AuthAssuranceLevel>;
  /** The factor that raised the session to aal2, and when (its `totp` entry in `amr`). */
  factor_id: string | null;
  mfa_verified_at: Timestamp | null;
  /** What the browser said it was when the session began, cleaned and cut to USER_AGENT_MAX (migration 0032). */
  user_agent: string | null;
  /** The client address the session began from (migration 0032). */
  ip: string | null;
}

export type AuthAssuranceLevel = "aal1" | "aal2";

export type FactorStatus = "unverified" | "verified";

/** A TOTP factor (authenticator app) of an account, as GoTrue's models/factor.go (migration 0030). */
export interface AuthMfaFactorsTable {
  id: Generated<string>;
  user_id: string;
  /** "" when none was given, as GoTrue stores it. */
  friendly_name: ColumnType<string, string | undefined, string>;
  factor_type: "totp";
  status: FactorStatus;
  /** The TOTP secret, sealed with MFA_SECRET_KEY (`v1.…`, app/infra/auth/secret-box.ts; base32 before ADR 064): never answered after enrolment, never logged. */
  secret: string;
  created_at: ColumnType<Date, Date | undefined, Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  last_challenged_at: Timestamp | null;
  /** The 30-second step of the last code accepted; a step is accepted once. */
  last_verified_step: number | null;
}

/** One of an account's ten single-use recovery codes, kept as its SHA-256 (migration 0031). */
export interface MfaRecoveryCodesTable {
  id: Generated<number>;
  user_id: string;
  code_hash: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  used_at: Timestamp | null;
}

/** A challenge of a factor, from one client address, verified once (migration 0030). */
export interface AuthMfaChallengesTable {
  id: Generated<string>;
  factor_id: string;
  created_at: ColumnType<Date, Date | undefined, Date>;
  verified_at: Timestamp | null;
  ip_address: string;
}

export type OneTimeTokenType = "recovery" | "email_change" | "signup";

export interface AuthOneTimeTokensTable {
  id: Generated<number>;
  token_hash: string;
  user_id: string;
  type: OneTimeTokenType;
  /** The address the link was mailed to (for email_change, the new address). */
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface AuthRefreshTokensTable {
  id: Generated<number>;
  token_hash: string;
  session_id: string;
  parent_id: number | null;
  created_at: CreatedAt;
  used_at: Timestamp | null;
  /** Set when the session changed level (a verified factor): the token refreshes no more (migration 0030). */
  superseded_at: Timestamp | null;
}

export interface RateLimitWindowsTable {
  bucket: string;
  stamps: Date[];
}

export interface RateLimitEventsTable {
  id: Generated<number>;
  bucket: string;
  created_at: CreatedAt;
}
