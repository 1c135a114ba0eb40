import type { User } from './entities';

/** Requests and results of the account, password and contact calls (accounts spec section 7). */

export interface LoginRequest {
  email: string;
  password: string;
  /** The solved ALTCHA payload (the spec's gCaptchToken field carries it; no secret key is sent). */
  gCaptchToken: string;
  newUserFlg?: number;
}

/** POST login result: the spec's id, firstName, email, isOrganiser, isPartner, plus the session token. */
export interface LoginResult {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  isdCode: string;
  isOrganiser: boolean;
  isPartner: boolean;
  /** Fulfilment staff or an operator: the account may work the print queue (the server checks every call). */
  isFulfilment: boolean;
  /** A platform operator: the account menu offers the Operator Console (the server checks every call). */
  isOperator: boolean;
  /** Whether the account proved its email address (orders placed with it without signing in show only then). */
  emailVerified: boolean;
  /** Session token, stored under session_token and sent as `Authorization: Bearer`. */
  token: string;
  /** ISO timestamp when the session ends. */
  expiresAt: string;
}

export interface SignUpRequest {
  firstName: string;
  lastName: string;
  email: string;
  primaryPhone: string;
  isdCode: string;
  password: string;
  confirmPassword: string;
  gCaptchToken: string;
  newUserFlg?: number;
  /** Checkout's sign-up asks to be signed in at once (the /sign-up page goes on to Sign In as the spec says). */
  signIn?: boolean;
}

export interface SignUpResult {
  id: number;
  email: string;
  /** The new account's session when the request asked for it. */
  session?: LoginResult;
}

/** Google sign-in: tokenkey is the provider's ID token; the server reads name and email from it after verifying. */
export interface SocialLoginRequest {
  tokenkey: string;
  login_type: 2;
}

export interface PasswordCodeRequest {
  email: string;
}

/** The code is mailed, never returned: the result only says where it went and how long it lasts. */
export interface PasswordCodeResult {
  email: string;
  expiresInMinutes: number;
}

/** Email proof: the code is mailed to the signed-in account's address, never returned. */
export interface EmailCodeResult {
  email: string;
  /** 0 when the address was already confirmed (no mail sent). */
  expiresInMinutes: number;
  emailVerified: boolean;
}

export interface EmailVerifyRequest {
  code: string;
}

export interface EmailVerifyResult {
  email: string;
  emailVerified: true;
  /** Orders placed with the address without signing in that the account now sees. */
  ordersClaimed: number;
}

/**
 * The result of a 403 for an order of the account's own address that waits for the email proof:
 * the page offers to prove the address instead of refusing.
 */
export interface EmailProofNeeded {
  emailProof: 'needed';
  email: string;
}

export interface PasswordResetRequest {
  passCode: string;
  email: string;
  newPassword: string;
  confirmPassword: string;
}

export interface ChangePasswordRequest {
  /** Accepted for the spec's payload shape; the server uses the session's user. */
  userID?: number | null;
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export interface ContactRequest {
  firstName: string;
  lastName: string;
  email: string;
  phoneNo: string;
  message: string;
  bibId?: string;
  isdCode: string;
  gCaptchToken: string;
}

/** "Checkout user info": the signed-in user's profile (the session decides whose). */
export type CheckoutUserInfo = User;

/**
 * How much work a captcha asks for. `strong` is asked after repeated failed sign-ins to one account:
 * the owner can still sign in (solving it takes longer), a guesser pays more per try.
 */
export type CaptchaStrength = 'standard' | 'strong';

/**
 * The result of a 400 that asks for a captcha before the call is sent again (sign-in after failures,
 * a further privacy OTP for a BIB): the form shows the captcha of that strength.
 */
export interface CaptchaNeeded {
  captcha: CaptchaStrength;
}

/** A captcha challenge as the ALTCHA widget reads it (v2 format). */
export interface CaptchaChallenge {
  parameters: {
    algorithm: string;
    nonce: string;
    salt: string;
    cost: number;
    keyLength: number;
    keyPrefix: string;
    keySignature?: string;
    expiresAt?: number;
    data?: Record<string, string | number | boolean | null>;
  };
  signature?: string;
}
