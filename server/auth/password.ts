import { randomBytes } from "node:crypto";
import { hashPassword } from "../../app/infra/auth/passwords";

/**
 * A valid hash of a random password, made once at start-up: a password is checked against it when the account does
 * not exist or has none, so that the time of the answer does not tell which addresses have an account.
 */
export const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"));
