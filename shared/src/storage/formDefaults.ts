import { DEFAULT_ISD_CODE, type SignUpInput } from '../schemas/accounts';
import { STORAGE_KEYS } from '../storageKeys';
import { localStore } from './localStore';

/** The visitor's ISD code as remembered at sign-in, else the spec's default (+91). */
export function storedIsdCode(): string {
  return localStore.get(STORAGE_KEYS.isdCode) || DEFAULT_ISD_CODE;
}

/** A fresh sign-up form (the sign-up page and the checkout's Sign up tab). */
export function emptySignUpForm(): SignUpInput {
  return { firstName: '', lastName: '', email: '', isdCode: storedIsdCode(), primaryPhone: '', password: '', confirmPassword: '', gCaptchToken: '' };
}
