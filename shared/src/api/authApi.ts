import { API_ROUTES } from './routes';
import { call, get, getRuntimeConfig, post } from '@finishline/shared/runtime';
import { STORAGE_KEYS, isSignedInValue } from '../storageKeys';
import { localStore } from '../storage/localStore';
import type { User } from '../types/entities';
import type {
  CaptchaStrength,
  ChangePasswordRequest,
  ContactRequest,
  EmailCodeResult,
  EmailVerifyRequest,
  EmailVerifyResult,
  LoginRequest,
  LoginResult,
  PasswordCodeRequest,
  PasswordCodeResult,
  PasswordResetRequest,
  SignUpRequest,
  SignUpResult,
  SocialLoginRequest,
} from '../types/accounts';

/** Typed calls of accounts, passwords and contact (accounts spec section 7). */
export const authApi = {
  login: (body: LoginRequest) => post<LoginResult>(API_ROUTES.login, body),
  socialLogin: (body: SocialLoginRequest) => post<LoginResult>(API_ROUTES.socialLogin, body),
  register: (body: SignUpRequest) => post<SignUpResult>(API_ROUTES.register, body),
  passwordCode: (body: PasswordCodeRequest) => post<PasswordCodeResult>(API_ROUTES.passwordCode, body),
  passwordReset: (body: PasswordResetRequest) => post<null>(API_ROUTES.passwordReset, body),
  changePassword: (body: ChangePasswordRequest) => post<null>(API_ROUTES.changePassword, body),
  /** Mails a code that proves the signed-in account's email address. */
  emailCode: () => post<EmailCodeResult>(API_ROUTES.emailCode, {}),
  emailVerify: (body: EmailVerifyRequest) => post<EmailVerifyResult>(API_ROUTES.emailVerify, body),
  logout: () => post<null>(API_ROUTES.logout, {}),
  currentUser: () => get<User>(API_ROUTES.currentUser),
  /** "Checkout user info": the server answers with the session's user whatever userID says. */
  checkoutUserInfo: (userID?: number | null) => post<User>(API_ROUTES.checkoutUserInfo, { userID: userID ?? null }),
  /** The contact form is sent as multipart (spec). */
  contact: (body: ContactRequest) => {
    const form = new FormData();
    Object.entries(body).forEach(([key, value]) => {
      if (value !== undefined && value !== null) form.append(key, String(value));
    });
    return call<null>({ method: 'POST', url: API_ROUTES.contact, data: form });
  },
};

/** Where the captcha widget fetches its challenge (a strong one after repeated failed sign-ins). */
export function captchaChallengeUrl(strength: CaptchaStrength = 'standard'): string {
  const base = `${getRuntimeConfig().apiBaseUrl}${API_ROUTES.captchaChallenge}`;
  return strength === 'strong' ? `${base}?strength=strong` : base;
}

/** Fired on window whenever the signed-in user changes, so the navbar (and any remote) can re-read. */
export const SESSION_CHANGED_EVENT = 'finishline:session-changed';

/** Keys that hold the signed-in user's local session data. */
export const SESSION_STORAGE_KEYS = [
  STORAGE_KEYS.name,
  STORAGE_KEYS.email,
  STORAGE_KEYS.userId,
  STORAGE_KEYS.isSignedIn,
  STORAGE_KEYS.sessionToken,
  STORAGE_KEYS.isOrganiser,
  STORAGE_KEYS.isPartner,
  STORAGE_KEYS.isFulfilment,
  STORAGE_KEYS.isOperator,
  STORAGE_KEYS.emailVerified,
] as const;

function announceSessionChange(): void {
  globalThis.dispatchEvent?.(new Event(SESSION_CHANGED_EVENT));
}

/** Stores the account flags and user fields at login under the spec's keys. */
export function rememberSignIn(login: LoginResult): void {
  localStore.set(STORAGE_KEYS.name, login.firstName);
  localStore.set(STORAGE_KEYS.email, login.email);
  localStore.set(STORAGE_KEYS.userId, String(login.id));
  localStore.set(STORAGE_KEYS.isSignedIn, 'true');
  localStore.set(STORAGE_KEYS.sessionToken, login.token);
  localStore.set(STORAGE_KEYS.isOrganiser, String(login.isOrganiser));
  localStore.set(STORAGE_KEYS.isPartner, String(login.isPartner));
  localStore.set(STORAGE_KEYS.isFulfilment, String(login.isFulfilment));
  localStore.set(STORAGE_KEYS.isOperator, String(login.isOperator === true));
  localStore.set(STORAGE_KEYS.emailVerified, String(login.emailVerified));
  if (login.isdCode) localStore.set(STORAGE_KEYS.isdCode, login.isdCode);
  announceSessionChange();
}

/** Remembers whether the signed-in account proved its address (after the proof, or the server's current user). */
export function rememberEmailVerified(verified: boolean): void {
  if (localStore.get(STORAGE_KEYS.emailVerified) === String(verified)) return;
  localStore.set(STORAGE_KEYS.emailVerified, String(verified));
  announceSessionChange();
}

/** Clears the local session data (log out, unauthorised page, a token the server refused). */
export function forgetSession(): void {
  localStore.remove(...SESSION_STORAGE_KEYS);
  announceSessionChange();
}

/** Revokes the session on the server, then clears it locally whatever the server said. */
export async function logOut(): Promise<void> {
  try {
    if (localStore.get(STORAGE_KEYS.sessionToken)) await authApi.logout();
  } catch {
    // An already expired or revoked token still logs out locally.
  } finally {
    forgetSession();
  }
}

export interface LocalSession {
  signedIn: boolean;
  name: string | null;
  email: string | null;
  userId: number | null;
  isOrganiser: boolean;
  isPartner: boolean;
  /** May work the print queue (fulfilment staff or an operator). */
  isFulfilment: boolean;
  /** A platform operator (the Operator Console). */
  isOperator: boolean;
  /** False only when the server said the account has not proved its address yet. */
  emailVerified: boolean;
}

/** The signed-in user as the browser remembers it (the server still decides every right). */
export function readLocalSession(): LocalSession {
  const signedIn = isSignedInValue(localStore.get(STORAGE_KEYS.isSignedIn)) && !!localStore.get(STORAGE_KEYS.sessionToken);
  const id = Number(localStore.get(STORAGE_KEYS.userId));
  return {
    signedIn,
    name: signedIn ? localStore.get(STORAGE_KEYS.name) : null,
    email: signedIn ? localStore.get(STORAGE_KEYS.email) : null,
    userId: signedIn && Number.isFinite(id) && id > 0 ? id : null,
    isOrganiser: signedIn && localStore.get(STORAGE_KEYS.isOrganiser) === 'true',
    isPartner: signedIn && localStore.get(STORAGE_KEYS.isPartner) === 'true',
    isFulfilment: signedIn && localStore.get(STORAGE_KEYS.isFulfilment) === 'true',
    isOperator: signedIn && localStore.get(STORAGE_KEYS.isOperator) === 'true',
    emailVerified: !signedIn || localStore.get(STORAGE_KEYS.emailVerified) !== 'false',
  };
}
