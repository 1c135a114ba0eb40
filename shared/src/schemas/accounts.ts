import { boolean, number, object, ref, string, type InferType } from 'yup';

/**
 * Account forms (sign-in, sign-up, forgot/reset/change password). The messages are the spec's, word
 * for word; the same schemas check the shell's forms and, through the server's validate(), every
 * request body.
 */

export const DEFAULT_ISD_CODE = '+91';
export const PASSWORD_MIN_LENGTH = 8;

export const ACCOUNT_MESSAGES = {
  invalidEmail: 'Invalid email',
  required: 'Required',
  requiredBang: 'Required!',
  passwordTooShort: 'Must be atleast 8 letters long!',
  passwordsMustMatch: 'Passwords must match',
  invalidPhone: 'Invalid phone number!',
  strongPassword: 'Password must be at least eight characters long and should include one each of uppercase, lowercase, number, special character.',
  enterPasscode: 'Enter the passcode',
  enterValidMail: 'Enter a Valid mail',
  invalidPasscode: 'please provide a valid passcode',
  captchaRequired: 'Please complete the captcha.',
} as const;

/** Spec (change and reset password): at least 8 characters with a lowercase, an uppercase letter and a digit. */
export const STRONG_PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/;

/** Indian mobile numbers: ten digits starting 6-9. */
export const INDIAN_PHONE_PATTERN = /^[6-9]\d{9}$/;
/** International numbers (without the country code): 6 to 14 digits. */
export const INTERNATIONAL_PHONE_PATTERN = /^\d{6,14}$/;

/** Spaces, dashes, dots and brackets people type inside phone numbers are dropped before checking. */
export function normalisePhone(value: string): string {
  return value.replace(/[\s\-().]/g, '');
}

/** An Indian or an international phone number, judged by the chosen ISD code (default +91). */
export function isValidPhone(phone: string, isdCode: string | undefined | null): boolean {
  const digits = normalisePhone(phone);
  return (isdCode ?? DEFAULT_ISD_CODE) === DEFAULT_ISD_CODE ? INDIAN_PHONE_PATTERN.test(digits) : INTERNATIONAL_PHONE_PATTERN.test(digits);
}

export const isdCodeSchema = string()
  .trim()
  .matches(/^\+\d{1,4}$/, 'Please choose a country code.')
  .default(DEFAULT_ISD_CODE);

const requiredEmail = string().trim().required(ACCOUNT_MESSAGES.required).email(ACCOUNT_MESSAGES.invalidEmail).max(254, ACCOUNT_MESSAGES.invalidEmail);

/** The captcha payload (ALTCHA, base64 JSON). The form keeps submit disabled until it is present; the server verifies it. */
export const captchaTokenSchema = string().trim().max(8000, ACCOUNT_MESSAGES.captchaRequired).required(ACCOUNT_MESSAGES.captchaRequired);

export const signInSchema = object({
  email: requiredEmail,
  password: string().required(ACCOUNT_MESSAGES.requiredBang).min(PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.passwordTooShort).max(200),
  gCaptchToken: captchaTokenSchema,
  newUserFlg: number().optional(),
});
export type SignInInput = InferType<typeof signInSchema>;

const personName = string().trim().max(60, 'Please keep the name under 60 characters.');

const phone = (field: 'primaryPhone' | 'phoneNo') =>
  string()
    .trim()
    .required(ACCOUNT_MESSAGES.required)
    .test(field, ACCOUNT_MESSAGES.invalidPhone, function check(value) {
      const parent = this.parent as { isdCode?: string };
      return !value || isValidPhone(value, parent.isdCode);
    });

export const signUpSchema = object({
  firstName: personName.required(ACCOUNT_MESSAGES.required),
  lastName: personName.required(ACCOUNT_MESSAGES.required),
  email: requiredEmail,
  isdCode: isdCodeSchema,
  primaryPhone: phone('primaryPhone'),
  password: string().required(ACCOUNT_MESSAGES.requiredBang).min(PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.passwordTooShort).max(200),
  confirmPassword: string()
    .required(ACCOUNT_MESSAGES.requiredBang)
    .min(PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.passwordTooShort)
    .oneOf([ref('password')], ACCOUNT_MESSAGES.passwordsMustMatch),
  gCaptchToken: captchaTokenSchema,
  newUserFlg: number().optional(),
  /** Checkout's sign-up: the new account is signed in at once, so the runner goes on to pay. */
  signIn: boolean().optional(),
});
export type SignUpInput = InferType<typeof signUpSchema>;

export const forgotPasswordSchema = object({
  email: requiredEmail,
});
export type ForgotPasswordInput = InferType<typeof forgotPasswordSchema>;

/**
 * Proving the account's email address: a code mailed to it, typed in while signed in. The texts the
 * account pages and the order history show, and the server's answers, in one place.
 */
export const EMAIL_PROOF_MESSAGES = {
  enterCode: 'Enter the 6-digit code from the mail.',
  invalidCode: 'This code is not valid. Please check the code in the latest mail, or ask for a new one.',
  alreadyConfirmed: 'Your email address is already confirmed.',
  codeSent: (email: string, minutes: number) => `We mailed a code to ${email}. It is valid for ${minutes} minutes.`,
  confirmed: (claimed: number) =>
    claimed === 0
      ? 'Your email address is confirmed.'
      : `Your email address is confirmed. ${claimed === 1 ? '1 order' : `${claimed} orders`} placed with it ${claimed === 1 ? 'is' : 'are'} now in your order history.`,
  /** What the order history and the account page say while orders wait for the proof. */
  waiting: (count: number, email: string) =>
    `${count === 1 ? '1 order' : `${count} orders`} placed with ${email} without signing in to this account ${count === 1 ? 'waits' : 'wait'} until you confirm that this email address is yours.`,
  howTo: (email: string) => `Press Send code: we mail a 6-digit code to ${email}. Type it here to confirm the address.`,
  /** A single order of the address opened before the proof (403). */
  orderWaits: (email: string) => `This order was placed with ${email} without signing in to this account. Confirm your email address to see it.`,
} as const;

export const emailProofSchema = object({
  code: string()
    .trim()
    .required(EMAIL_PROOF_MESSAGES.enterCode)
    .matches(/^\d{6}$/, EMAIL_PROOF_MESSAGES.enterCode),
});
export type EmailProofInput = InferType<typeof emailProofSchema>;

const strongPassword = string().required(ACCOUNT_MESSAGES.requiredBang).max(200).matches(STRONG_PASSWORD_PATTERN, ACCOUNT_MESSAGES.strongPassword);

export const resetPasswordSchema = object({
  passCode: string()
    .trim()
    .required(ACCOUNT_MESSAGES.enterPasscode)
    .matches(/^\d.{3,}$/, ACCOUNT_MESSAGES.enterPasscode)
    .max(12, ACCOUNT_MESSAGES.invalidPasscode),
  email: string()
    .trim()
    .required(ACCOUNT_MESSAGES.enterValidMail)
    .matches(/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/, ACCOUNT_MESSAGES.enterValidMail)
    .max(254, ACCOUNT_MESSAGES.enterValidMail),
  newPassword: strongPassword,
  confirmPassword: string()
    .required(ACCOUNT_MESSAGES.requiredBang)
    .oneOf([ref('newPassword')], ACCOUNT_MESSAGES.passwordsMustMatch),
});
export type ResetPasswordInput = InferType<typeof resetPasswordSchema>;

/**
 * Change password. The current password is checked only for presence and length: accounts made by
 * sign-up (8 characters, no other rule) must still be able to move to a strong password.
 */
export const changePasswordSchema = object({
  userID: number().integer().nullable().optional(),
  currentPassword: string().required(ACCOUNT_MESSAGES.requiredBang).min(PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.strongPassword).max(200),
  newPassword: strongPassword,
  confirmPassword: string()
    .required(ACCOUNT_MESSAGES.requiredBang)
    .oneOf([ref('newPassword')], ACCOUNT_MESSAGES.passwordsMustMatch),
});
export type ChangePasswordInput = InferType<typeof changePasswordSchema>;

/** Google sign-in: only the provider's ID token counts; names and email come from the verified token. */
export const socialLoginSchema = object({
  tokenkey: string().trim().min(20, 'Login failed').max(8000, 'Login failed').required('Login failed'),
  login_type: number().optional(),
  email: string().optional(),
  firstName: string().optional(),
  lastName: string().optional(),
  newUserFlg: number().optional(),
});
export type SocialLoginInput = InferType<typeof socialLoginSchema>;

export const checkoutUserInfoSchema = object({
  userID: number().integer().nullable().optional(),
  remember: boolean().optional(),
});

/** Contact form (spec section 5): names of letters only, at least 3; phone pattern and at least 10 digits. */
export const CONTACT_MESSAGES = {
  tooShort: 'Too Short!',
  onlyAlphabets: 'only alphabets',
  tenDigits: 'Must contain 10 Digits!',
  messageRequired: 'Please write your message.',
} as const;

const contactName = string()
  .trim()
  .required(ACCOUNT_MESSAGES.required)
  .min(3, CONTACT_MESSAGES.tooShort)
  .max(60, 'Please keep the name under 60 characters.')
  .matches(/^[A-Za-z ]+$/, CONTACT_MESSAGES.onlyAlphabets);

export const contactSchema = object({
  firstName: contactName,
  lastName: contactName,
  email: requiredEmail,
  isdCode: isdCodeSchema,
  phoneNo: string()
    .trim()
    .required(ACCOUNT_MESSAGES.required)
    .test('ten-digits', CONTACT_MESSAGES.tenDigits, (value) => !value || normalisePhone(value).replace(/\D/g, '').length >= 10)
    .test('phone', ACCOUNT_MESSAGES.invalidPhone, function check(value) {
      const parent = this.parent as { isdCode?: string };
      return !value || isValidPhone(value, parent.isdCode);
    }),
  message: string().trim().max(2000, 'Please keep your message under 2000 characters.').required(CONTACT_MESSAGES.messageRequired),
  bibId: string().trim().max(32).optional(),
  gCaptchToken: captchaTokenSchema,
});
export type ContactInput = InferType<typeof contactSchema>;
