import type { AppConfig } from '../config/config';

/**
 * Every rate-limit rule of the API, in one place. Two kinds:
 * - per client address (request.ip): counted by @fastify/rate-limit (security/addressLimits.ts), in
 *   Redis when REDIS_URL is set so several API processes share one count; past the limit a 429;
 * - per account, BIB or email (security/subjectCounters.ts, in the database so every process shares
 *   them): an outsider can reach these for someone else, so the account and BIB rules never refuse
 *   the owner; they ask for a (stronger) captcha instead.
 */

export interface AddressRule {
  /** Names the count: rules counted inside a handler keep separate counts by it. */
  name: string;
  max: number;
  windowSeconds: number;
  message: string;
}

export interface SubjectRule {
  /** What is counted, e.g. `signin:account:a@b.c` or `otp:bib:3:1234`. */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export const LIMIT_MESSAGES = {
  photoSearch: 'Too many searches from your network. Please wait a few minutes and try again.',
  selfieSearch: 'Too many selfie searches. Please wait a few minutes and try again.',
  signIn: 'Too many failed sign-in attempts. Please wait 15 minutes and try again, or reset your password.',
  passwordCode: 'Too many passcode requests. Please wait an hour and try again.',
  signUp: 'Too many sign-ups from this network. Please try again later.',
  emailCode: 'Too many codes asked for. Please use the last code we mailed you, or wait an hour and ask again.',
  otpSend: 'Too many OTP requests. Please try again in a few minutes.',
  preorderLink: 'Too many attempts. Please try again in 15 minutes.',
  clientReports: 'Too many reports from this browser. Please try again in a minute.',
  collagePreview: 'Too many collage previews from your network. Please wait a few minutes and try again.',
  contact: (supportAddress: string) => `You have sent several messages recently. Please try again in an hour, or write to ${supportAddress}.`,
} as const;

/** The per-address rules. Each limited route, or each count taken inside a handler, names one. */
export function addressRules(config: AppConfig) {
  const s = config.security;
  return {
    /** BIB search, photo pages and advanced search: walking every BIB of an event must stay slow. */
    photoSearch: { name: 'photo-search', max: s.photoSearchPerIp, windowSeconds: s.photoSearchWindowSeconds, message: LIMIT_MESSAGES.photoSearch },
    /**
     * Each selfie costs a face detection; counted only once the input is valid. A backstop against
     * one machine rotating sessions: many runners share a carrier's address, so it is set high and
     * the everyday count is per device session (subjectRules.selfieSession).
     */
    selfieSearch: { name: 'selfie', max: s.selfieSearchesPerIp, windowSeconds: s.selfieSearchWindowSeconds, message: LIMIT_MESSAGES.selfieSearch },
    /** Counted only once the captcha and the input passed. */
    contact: { name: 'contact', max: s.contactPerIp, windowSeconds: s.contactWindowSeconds, message: LIMIT_MESSAGES.contact(config.mail.supportAddress) },
    /** Failed sign-ins (and wrong current passwords) per address; a right password does not count. */
    signInFailures: { name: 'signin-failures', max: s.signInFailuresPerIp, windowSeconds: s.signInWindowSeconds, message: LIMIT_MESSAGES.signIn },
    signUp: { name: 'signup', max: s.signUpsPerIp, windowSeconds: 3600, message: LIMIT_MESSAGES.signUp },
    emailCode: { name: 'email-code', max: s.emailCodesPerIp, windowSeconds: s.emailCodeWindowSeconds, message: LIMIT_MESSAGES.emailCode },
    passwordCode: { name: 'password-code', max: s.passwordCodesPerIp, windowSeconds: s.passwordCodeWindowSeconds, message: LIMIT_MESSAGES.passwordCode },
    otpSend: { name: 'otp-send', max: s.otpSendsPerIp, windowSeconds: s.otpWindowSeconds, message: LIMIT_MESSAGES.otpSend },
    /** The shell's batches of reports (views and errors of remotes); the shell itself sends at most a few a minute. */
    clientReports: { name: 'client-reports', max: config.releases.batchesPerIpPerMinute, windowSeconds: 60, message: LIMIT_MESSAGES.clientReports },
    /** Each preview draws a collage: a page asking again and again must not keep a core busy. */
    collagePreview: {
      name: 'collage-preview',
      max: s.collagePreviewsPerIp,
      windowSeconds: s.collagePreviewWindowSeconds,
      message: LIMIT_MESSAGES.collagePreview,
    },
    /** Guessing pre-order ids must stay slow. */
    preorderLink: { name: 'preorder-link', max: s.preorderLinkTriesPerIp, windowSeconds: s.preorderLinkWindowSeconds, message: LIMIT_MESSAGES.preorderLink },
  } satisfies Record<string, AddressRule>;
}

const normalEmail = (email: string) => email.trim().toLowerCase();

/** The per-account, per-BIB and per-email rules. */
export const subjectRules = {
  /** Failed sign-ins of one account; past the limit its sign-in needs the strong captcha (never a lock-out). */
  signInAccount: (config: AppConfig, email: string): SubjectRule => ({
    bucket: `signin:account:${normalEmail(email)}`,
    limit: config.security.signInFailuresBeforeStrongCaptcha,
    windowSeconds: config.security.signInWindowSeconds,
  }),
  /**
   * Selfie searches of one device session (the session token the storefront holds; without one, the
   * address stands in); past the limit a further search needs a captcha, and a solved one clears the count.
   */
  selfieSession: (config: AppConfig, device: string): SubjectRule => ({
    bucket: `selfie:${device}`,
    limit: config.security.selfieSearchesPerSession,
    windowSeconds: config.security.selfieSearchWindowSeconds,
  }),
  /** OTP mails for one BIB; past the limit a further one needs a captcha (never a refusal). */
  otpBib: (config: AppConfig, eventId: number, bib: string): SubjectRule => ({
    bucket: `otp:bib:${eventId}:${bib}`,
    limit: config.security.otpSendsPerBibBeforeCaptcha,
    windowSeconds: config.security.otpWindowSeconds,
  }),
  /**
   * Passcode mails for one email: refused past the limit, to keep a mailbox from being flooded. An
   * outsider can so delay the owner's reset by up to the window: the form has no captcha to ask for.
   */
  passwordCodeEmail: (config: AppConfig, email: string): SubjectRule => ({
    bucket: `pwcode:email:${normalEmail(email)}`,
    limit: config.security.passwordCodesPerEmail,
    windowSeconds: config.security.passwordCodeWindowSeconds,
  }),
  /**
   * Email proof codes for one account: refused past the limit. Only the signed-in account can ask,
   * so this keeps its own holder (or someone who signed up with another's address) from flooding
   * that mailbox.
   */
  emailCodeAccount: (config: AppConfig, userId: number): SubjectRule => ({
    bucket: `emailcode:account:${userId}`,
    limit: config.security.emailCodesPerAccount,
    windowSeconds: config.security.emailCodeWindowSeconds,
  }),
};
