import type { FastifyRequest } from 'fastify';
import { mixed, object } from 'yup';
import {
  ACCOUNT_MESSAGES,
  API_ROUTES,
  changePasswordSchema,
  checkoutUserInfoSchema,
  EMAIL_PROOF_MESSAGES,
  emailProofSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  socialLoginSchema,
  type LoginResult,
  type CaptchaNeeded,
  type CaptchaStrength,
  type EmailCodeResult,
  type EmailVerifyResult,
  type PasswordCodeResult,
  type SignUpResult,
} from '@finishline/shared/pure';
import type { Feature } from '../index';
import type { AppContext } from '../../context';
import { AppError, badRequest, sendOk, tooManyRequests } from '../../http/envelope';
import { validate } from '../../http/validate';
import { issueCaptchaChallenge, verifyCaptcha } from '../../security/captcha';
import { addressCounter, routeLimit } from '../../security/addressLimits';
import { addressRules, LIMIT_MESSAGES, subjectRules } from '../../security/limits';
import { clearHits, limitReached, recordHit } from '../../security/subjectCounters';
import { carryVerifiedBibs } from '../../rules/privacy';
import {
  createSession,
  createUser,
  findUserByEmail,
  hashPassword,
  markEmailVerified,
  presentedToken,
  requireUser,
  resolveSession,
  revokeAllSessionsOf,
  revokeSession,
  toUser,
  verifyPassword,
  type UserRow,
} from '../accounts';
import { withheldOrderCount } from '../orders';
import { consumeCode, emailProofCodes, emailProofSubject, issueCode, passwordCodeSubject, passwordResetCodes } from './mailedCodes';
import { sendEmailCodeMail, sendPasswordChangedMail, sendPasswordCodeMail, sendUnprovenPasswordRemovedMail, sendWelcomeMail } from './mails';
import { verifyGoogleIdToken } from './google';

export const SIGN_IN_FAILED_MESSAGE = 'Invalid email or password.';
export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists. Please sign in.';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Your current password is not correct.';
/** Asked instead of locking the account: its owner still signs in, a guesser pays more per try. */
export const STRONG_CAPTCHA_MESSAGE =
  'There were several failed sign-ins to this account. Please solve the captcha again (it takes a little longer) and sign in.';

async function startSession(ctx: AppContext, user: UserRow, request: FastifyRequest): Promise<LoginResult> {
  const { token, expiresAt } = await createSession(ctx.db, user.id);
  // Signing in at checkout must not undo the BIB verified by OTP a moment ago as a visitor.
  const previous = await resolveSession(ctx, request);
  if (previous && (previous.userId === null || previous.userId === user.id)) await carryVerifiedBibs(ctx.db, previous.id, token);
  return {
    id: user.id,
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    isdCode: user.isd_code,
    isOrganiser: user.is_organiser,
    isPartner: user.is_partner,
    isFulfilment: user.is_fulfilment === true || user.is_operator === true,
    isOperator: user.is_operator === true,
    emailVerified: user.email_verified_at !== null,
    token,
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * A Google sign-in proves the address of an account that had not proven it. Its password was set
 * before anyone proved the address, possibly by someone who signed up with this address to see its
 * orders: it is removed and every session of the account ends (the owner signs in with Google or
 * sets a new password by the mailed passcode).
 */
async function proveByGoogle(ctx: AppContext, user: UserRow): Promise<UserRow> {
  const hadPassword = user.password_hash !== null;
  await ctx.db.transaction(async (tx) => {
    await markEmailVerified(tx, user.id);
    if (hadPassword) {
      await tx.query('update users set password_hash = null where id = $1', [user.id]);
      await revokeAllSessionsOf(tx, user.id);
    }
  });
  if (hadPassword) await sendUnprovenPasswordRemovedMail(ctx, user.email, user.first_name);
  return (await findUserByEmail(ctx.db, user.email)) ?? user;
}

const captchaChallengeQuery = object({ strength: mixed<CaptchaStrength>().oneOf(['standard', 'strong']).default('standard') });

const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

/** Sign-in, sign-up, Google sign-in, password code / reset / change, log out, current user, captcha challenge. */
export const authRoutes: Feature = async (app, { ctx }) => {
  const limits = addressRules(ctx.config);
  // Failed sign-ins per address: counted on failure only, so a shared network's good sign-ins cost nothing.
  const signInFailures = addressCounter(app, limits.signInFailures);

  app.get(API_ROUTES.captchaChallenge, async (request, reply) => {
    const { strength } = await validate(captchaChallengeQuery, request.query);
    // The widget reads the challenge itself (not an envelope) and a used challenge must never be cached.
    reply.header('Cache-Control', 'no-store');
    return reply.send(await issueCaptchaChallenge(ctx, strength));
  });

  app.post(API_ROUTES.login, async (request, reply) => {
    const input = await validate(signInSchema, request.body);
    // Past the address's limit even the right password is refused (the address is the guesser's own).
    await signInFailures.assertUnder(request);
    // An account's failures never lock it (an outsider could lock its owner out): they make its captcha strong.
    const accountRule = subjectRules.signInAccount(ctx.config, input.email);
    await verifyCaptcha(ctx, input.gCaptchToken, (await limitReached(ctx.db, accountRule)) ? { strongNeeded: STRONG_CAPTCHA_MESSAGE } : {});
    const user = await findUserByEmail(ctx.db, input.email);
    // An unknown email is verified against a dummy hash too: one answer time whatever the email.
    if (!(await verifyPassword(user?.password_hash ?? null, input.password)) || !user) {
      await recordHit(ctx.db, accountRule);
      await signInFailures.hit(request);
      // The answer says so when the next try needs the strong captcha, so the form shows it at once.
      const next: CaptchaNeeded | null = (await limitReached(ctx.db, accountRule)) ? { captcha: 'strong' } : null;
      throw new AppError(401, SIGN_IN_FAILED_MESSAGE, next);
    }
    await clearHits(ctx.db, accountRule);
    return sendOk(reply, await startSession(ctx, user, request), 'Login successful');
  });

  app.post(API_ROUTES.register, { config: routeLimit(limits.signUp) }, async (request, reply) => {
    const input = await validate(signUpSchema, request.body);
    await verifyCaptcha(ctx, input.gCaptchToken);
    if (await findUserByEmail(ctx.db, input.email)) throw new AppError(409, EMAIL_TAKEN_MESSAGE);
    let id: number;
    try {
      id = await createUser(ctx.db, {
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        password: input.password,
        primaryPhone: input.primaryPhone.replace(/[\s\-().]/g, ''),
        isdCode: input.isdCode,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, EMAIL_TAKEN_MESSAGE);
      throw error;
    }
    // Signing up proves nothing about the address: the welcome mail carries the first proof code.
    const email = input.email.trim().toLowerCase();
    const proofCode = await issueCode(ctx, emailProofCodes(ctx), emailProofSubject({ id, email }));
    await recordHit(ctx.db, subjectRules.emailCodeAccount(ctx.config, id));
    await sendWelcomeMail(ctx, email, input.firstName.trim(), { code: proofCode, minutes: ctx.config.security.emailCodeMinutes });
    const result: SignUpResult = { id, email };
    if (input.signIn) {
      // Checkout's sign-up goes on signed in. The new account has proved nothing yet, so the
      // session sees only what it buys signed in (docs/accounts.md), as after any sign-in.
      const user = await findUserByEmail(ctx.db, email);
      if (user) result.session = await startSession(ctx, user, request);
      return sendOk(reply, result, 'Registered Successfully !');
    }
    return sendOk(reply, result, 'Registered Successfully ! Please sign in.');
  });

  /** Google: the ID token is verified with Google's keys for our client id; nothing the browser claims is trusted. */
  app.post(API_ROUTES.socialLogin, async (request, reply) => {
    const clientId = ctx.config.security.googleClientId;
    if (!clientId) throw badRequest('Google sign-in is not available.');
    const input = await validate(socialLoginSchema, request.body);
    const identity = await verifyGoogleIdToken(clientId, input.tokenkey);
    if (!identity) throw new AppError(401, 'Login failed');
    let user = await findUserByEmail(ctx.db, identity.email);
    let message = 'Login successful';
    if (!user) {
      try {
        // Google verified the address (verifyGoogleIdToken refuses an unverified one).
        await createUser(ctx.db, {
          firstName: identity.firstName,
          lastName: identity.lastName,
          email: identity.email,
          password: null,
          loginType: 2,
          emailVerified: true,
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      user = await findUserByEmail(ctx.db, identity.email);
      if (!user) throw new AppError(401, 'Login failed');
      await sendWelcomeMail(ctx, user.email, user.first_name);
      message = 'Registered Successfully !';
    } else if (user.email_verified_at === null) {
      user = await proveByGoogle(ctx, user);
    }
    return sendOk(reply, await startSession(ctx, user, request), message);
  });

  /** Mails a one-time passcode. The answer is the same whether or not the email has an account. */
  app.post(API_ROUTES.passwordCode, { config: routeLimit(limits.passwordCode) }, async (request, reply) => {
    const input = await validate(forgotPasswordSchema, request.body);
    const emailRule = subjectRules.passwordCodeEmail(ctx.config, input.email);
    if (await limitReached(ctx.db, emailRule)) throw tooManyRequests(LIMIT_MESSAGES.passwordCode);
    await recordHit(ctx.db, emailRule);
    const user = await findUserByEmail(ctx.db, input.email);
    const minutes = ctx.config.security.passwordCodeMinutes;
    if (user) {
      const code = await issueCode(ctx, passwordResetCodes(ctx), passwordCodeSubject(user.email));
      await sendPasswordCodeMail(ctx, user.email, user.first_name, code, minutes);
    }
    const result: PasswordCodeResult = { email: input.email.trim().toLowerCase(), expiresInMinutes: minutes };
    return sendOk(reply, result, `If ${result.email} has an account, a passcode is on its way. It is valid for ${minutes} minutes.`);
  });

  app.post(API_ROUTES.passwordReset, async (request, reply) => {
    const input = await validate(resetPasswordSchema, request.body);
    const user = await findUserByEmail(ctx.db, input.email);
    if (!user) throw badRequest(ACCOUNT_MESSAGES.invalidPasscode);
    const newHash = await hashPassword(input.newPassword);
    // A wrong try must be counted, so the transaction commits and the refusal comes after it.
    const outcome = await ctx.db.transaction(async (tx) => {
      const check = await consumeCode(ctx, tx, passwordResetCodes(ctx), passwordCodeSubject(user.email), input.passCode);
      if (check !== 'ok') return check;
      await tx.query('update users set password_hash = $1 where id = $2', [newHash, user.id]);
      // The passcode went to the address: the reset proves it (and every other session ends).
      await markEmailVerified(tx, user.id);
      await revokeAllSessionsOf(tx, user.id);
      await clearHits(tx, subjectRules.signInAccount(ctx.config, user.email));
      return check;
    });
    if (outcome !== 'ok') throw badRequest(ACCOUNT_MESSAGES.invalidPasscode);
    await sendPasswordChangedMail(ctx, user.email, user.first_name);
    return sendOk(reply, null, 'Your password has been reset. Please sign in with your new password.');
  });

  app.post(API_ROUTES.changePassword, async (request, reply) => {
    const { session, user } = await requireUser(ctx, request);
    const input = await validate(changePasswordSchema, request.body);
    // Guessing the current password through this form counts like failed sign-ins (per address, and
    // toward the account's strong captcha at sign-in).
    await signInFailures.assertUnder(request);
    if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
      await recordHit(ctx.db, subjectRules.signInAccount(ctx.config, user.email));
      await signInFailures.hit(request);
      throw badRequest(WRONG_CURRENT_PASSWORD_MESSAGE);
    }
    if (input.currentPassword === input.newPassword) throw badRequest('The new password must be different from the current one.');
    await ctx.db.transaction(async (tx) => {
      await tx.query('update users set password_hash = $1 where id = $2', [await hashPassword(input.newPassword), user.id]);
      // Other devices are signed out; this one stays signed in.
      await revokeAllSessionsOf(tx, user.id, session.id);
    });
    await sendPasswordChangedMail(ctx, user.email, user.first_name);
    return sendOk(reply, null, 'Password changed successfully');
  });

  /** Mails the signed-in account a code that proves its email address (limited per address and per account). */
  app.post(API_ROUTES.emailCode, { config: routeLimit(limits.emailCode) }, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    if (user.email_verified_at !== null) {
      const done: EmailCodeResult = { email: user.email, expiresInMinutes: 0, emailVerified: true };
      return sendOk(reply, done, EMAIL_PROOF_MESSAGES.alreadyConfirmed);
    }
    const accountRule = subjectRules.emailCodeAccount(ctx.config, user.id);
    if (await limitReached(ctx.db, accountRule)) throw tooManyRequests(LIMIT_MESSAGES.emailCode);
    await recordHit(ctx.db, accountRule);
    const minutes = ctx.config.security.emailCodeMinutes;
    const code = await issueCode(ctx, emailProofCodes(ctx), emailProofSubject(user));
    await sendEmailCodeMail(ctx, user.email, user.first_name, code, minutes);
    const result: EmailCodeResult = { email: user.email, expiresInMinutes: minutes, emailVerified: false };
    return sendOk(reply, result, EMAIL_PROOF_MESSAGES.codeSent(user.email, minutes));
  });

  /** The code from the mail, typed in while signed in: the account's address is proven and its guest orders become its own. */
  app.post(API_ROUTES.emailVerify, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    const { code } = await validate(emailProofSchema, request.body);
    if (user.email_verified_at !== null) {
      const done: EmailVerifyResult = { email: user.email, emailVerified: true, ordersClaimed: 0 };
      return sendOk(reply, done, EMAIL_PROOF_MESSAGES.alreadyConfirmed);
    }
    const claimed = await withheldOrderCount(ctx, user);
    // A wrong try must be counted, so the transaction commits and the refusal comes after it.
    const outcome = await ctx.db.transaction(async (tx) => {
      const check = await consumeCode(ctx, tx, emailProofCodes(ctx), emailProofSubject(user), code);
      if (check === 'ok') await markEmailVerified(tx, user.id);
      return check;
    });
    if (outcome !== 'ok') throw badRequest(EMAIL_PROOF_MESSAGES.invalidCode);
    const result: EmailVerifyResult = { email: user.email, emailVerified: true, ordersClaimed: claimed };
    return sendOk(reply, result, EMAIL_PROOF_MESSAGES.confirmed(claimed));
  });

  app.post(API_ROUTES.logout, async (request, reply) => {
    const token = presentedToken(request);
    if (token) await revokeSession(ctx.db, token);
    return sendOk(reply, null, 'Logged out successfully');
  });

  app.get(API_ROUTES.currentUser, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    return sendOk(reply, toUser(user));
  });

  /** "Checkout user info": the body's userID is accepted for the spec's shape but the session decides. */
  app.post(API_ROUTES.checkoutUserInfo, async (request, reply) => {
    await validate(checkoutUserInfoSchema, request.body);
    const { user } = await requireUser(ctx, request);
    return sendOk(reply, toUser(user));
  });
};
