import { API_ROUTES, generateOtpSchema, verifyOtpSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { badRequest, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { routeLimit } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';
import { resolveSession } from '../accounts';
import { generatePrivacyOtp, OTP_MESSAGES, verifyPrivacyOtp } from './privacyOtp';

/** Privacy OTP: generate (mail a code) and verify (unlock the BIB's photos for this search session). */
export const otpRoutes: Feature = async (app, { ctx }) => {
  // Each address may have so many codes mailed; a BIB's own quota asks for a captcha instead (privacyOtp).
  app.post(API_ROUTES.generateOtp, { config: routeLimit(addressRules(ctx.config).otpSend) }, async (request, reply) => {
    const input = await validate(generateOtpSchema, request.body);
    const session = await resolveSession(ctx, request);
    if (!session) throw badRequest(OTP_MESSAGES.noSession);
    const { message, result } = await generatePrivacyOtp(ctx, input, session.id);
    return sendOk(reply, result, message);
  });

  app.post(API_ROUTES.verifyOtp, async (request, reply) => {
    const input = await validate(verifyOtpSchema, request.body);
    const session = await resolveSession(ctx, request);
    if (!session) throw badRequest(OTP_MESSAGES.noSession);
    await verifyPrivacyOtp(ctx, input, session.id);
    return sendOk(reply, { isVerified: true as const }, OTP_MESSAGES.verified);
  });
};
