import { API_ROUTES, contactSchema } from '@finishline/shared/pure';
import type { FastifyRequest } from 'fastify';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { verifyCaptcha } from '../../security/captcha';
import { addressCounter } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';
import { optionalUser } from '../accounts';
import { saveContactMessage, sendContactMails } from './contactMessages';

export const CONTACT_THANKS_MESSAGE = 'Thank you for contacting us. Our support team will reply within 48 hours.';

/** The spec sends the contact form as multipart; JSON is accepted too. Only text fields are read. */
async function readFields(request: FastifyRequest): Promise<Record<string, string>> {
  if (!request.isMultipart()) return (request.body ?? {}) as Record<string, string>;
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'field') fields[part.fieldname] = String(part.value);
    else part.file.resume(); // files are not part of this form: drain and ignore
  }
  return fields;
}

export const contactRoutes: Feature = async (app, { ctx }) => {
  const messagesPerAddress = addressCounter(app, addressRules(ctx.config).contact);
  app.post(API_ROUTES.contact, async (request, reply) => {
    // The input and the captcha first: a bad request must not use up the address's allowance.
    const input = await validate(contactSchema, await readFields(request));
    await verifyCaptcha(ctx, input.gCaptchToken);
    await messagesPerAddress.hit(request);
    const signedIn = await optionalUser(ctx, request);
    const id = await saveContactMessage(ctx.db, input, signedIn?.user.id ?? null, request.ip);
    await sendContactMails(ctx, id, input);
    return sendOk(reply, { id }, CONTACT_THANKS_MESSAGE);
  });
};
