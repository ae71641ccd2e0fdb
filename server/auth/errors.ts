/**
 * The embedded auth server's errors in GoTrue's words (ADR 062): the `error_code`s it answers, named as
 * internal/api/apierrors/errorcode.go names them, and the error every handler throws. A new refusal takes its code
 * from here; one GoTrue has goes in under GoTrue's name, so supabase-js and the app (which read `error.code`) see
 * what they would see from a hosted Supabase.
 */
export const ErrorCode = {
  ValidationFailed: "validation_failed",
  EmailExists: "email_exists",
  BadJWT: "bad_jwt",
  UserNotFound: "user_not_found",
  SessionNotFound: "session_not_found",
  RefreshTokenNotFound: "refresh_token_not_found",
  RefreshTokenAlreadyUsed: "refresh_token_already_used",
  FlowStateNotFound: "flow_state_not_found",
  FlowStateExpired: "flow_state_expired",
  UserBanned: "user_banned",
  BadOAuthCallback: "bad_oauth_callback",
  SingleIdentityNotDeletable: "single_identity_not_deletable",
  IdentityAlreadyExists: "identity_already_exists",
  PhoneProviderDisabled: "phone_provider_disabled",
  EmailNotConfirmed: "email_not_confirmed",
  UserAlreadyExists: "user_already_exists",
  SamePassword: "same_password",
  // GoTrue says `current_password_invalid` today; the embedded auth has said `current_password_mismatch` from the
  // start, and the password page matches on it (app/routes/_settings.settings.password.tsx).
  CurrentPasswordMismatch: "current_password_mismatch",
  CurrentPasswordRequired: "current_password_required",
  OTPExpired: "otp_expired",
  IdentityNotFound: "identity_not_found",
  WeakPassword: "weak_password",
  OverRequestRateLimit: "over_request_rate_limit",
  OverEmailSendRateLimit: "over_email_send_rate_limit",
  BadCodeVerifier: "bad_code_verifier",
  InvalidCredentials: "invalid_credentials",
  EmailAddressNotProvided: "email_address_not_provided",
  // TOTP factors (mfa.go).
  TooManyEnrolledMFAFactors: "too_many_enrolled_mfa_factors",
  MFAFactorNameConflict: "mfa_factor_name_conflict",
  MFAFactorNotFound: "mfa_factor_not_found",
  MFAIPAddressMismatch: "mfa_ip_address_mismatch",
  MFAChallengeExpired: "mfa_challenge_expired",
  MFAVerificationFailed: "mfa_verification_failed",
  InsufficientAAL: "insufficient_aal",
  // Our own, where GoTrue has no code of its own for the case: a new address that is the current one, a second
  // Discord account for one account, Discord failing during the callback, and a path the server does not serve.
  SameEmail: "same_email",
  ProviderAlreadyLinked: "provider_already_linked",
  ProviderError: "provider_error",
  NotFound: "not_found",
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The `error` of an OAuth redirect back to the app (RFC 6749 4.1.2.1), beside its `error_code` and
 * `error_description`, as GoTrue's external.go sends them.
 */
export const OAuthError = {
  InvalidRequest: "invalid_request",
  AccessDenied: "access_denied",
  ServerError: "server_error",
} as const;

export type OAuthError = (typeof OAuthError)[keyof typeof OAuthError];

/** A refusal: its HTTP status, its GoTrue code, and the Japanese message the app shows. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

