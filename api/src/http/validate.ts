import { ValidationError, type Schema, type InferType } from 'yup';
import { badRequest } from './envelope';
import { INPUT_MESSAGES } from './inputGuard';

/** Longest rule message passed through; a longer one would be built from the input. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * The message a failed rule shows: the schema's own fixed text, never one that carries the input.
 * yup's built-in type messages quote the value ("... the final value was: ..."): those become a
 * fixed text.
 */
function fixedMessage(error: ValidationError): string {
  const message = error.errors[0] ?? INPUT_MESSAGES.wrongType;
  if (/final value was|cast from the value/.test(message) || message.length > MAX_MESSAGE_LENGTH) return INPUT_MESSAGES.wrongType;
  return message;
}

/**
 * Validates input with a yup schema from shared (the same one the browser's form uses) and returns
 * the cast value; the first failing rule's message becomes a 400 with the envelope. A value of the
 * wrong shape (an object where a string belongs) makes yup's transforms throw: that is a 400 too.
 */
export async function validate<S extends Schema>(schema: S, input: unknown, context?: object): Promise<InferType<S>> {
  try {
    return await schema.validate(input ?? {}, { abortEarly: true, stripUnknown: true, context });
  } catch (error) {
    if (error instanceof ValidationError) throw badRequest(fixedMessage(error));
    if (error instanceof TypeError) throw badRequest(INPUT_MESSAGES.wrongType);
    throw error;
  }
}
