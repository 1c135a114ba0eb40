import { ValidationError, type Schema, type InferType } from 'yup';
import { badRequest } from './envelope';

/**
 * Validates input with a yup schema from shared (the same one the browser's form uses) and returns
 * the cast value; the first failing rule's message becomes a 400 with the envelope.
 */
export async function validate<S extends Schema>(schema: S, input: unknown): Promise<InferType<S>> {
  try {
    return await schema.validate(input ?? {}, { abortEarly: true, stripUnknown: true });
  } catch (error) {
    if (error instanceof ValidationError) throw badRequest(error.errors[0] ?? 'Invalid input');
    throw error;
  }
}
