import crypto from 'node:crypto';
import { payuCommandHashInput, payuRequestHashInput, payuReverseHashInput, type PayuRequestFields, type PayuResponseFields } from '@finishline/shared/pure';

const sha512 = (text: string) => crypto.createHash('sha512').update(text, 'utf8').digest('hex');

export const payuRequestHash = (fields: PayuRequestFields, salt: string) => sha512(payuRequestHashInput(fields, salt));
export const payuReverseHash = (fields: PayuResponseFields, salt: string) => sha512(payuReverseHashInput(fields, salt));
export const payuCommandHash = (key: string, command: string, var1: string, salt: string) => sha512(payuCommandHashInput(key, command, var1, salt));

/** Constant-time comparison of two hex hashes (case-insensitive, as gateways differ in case). */
export function sameHash(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected.toLowerCase());
  const b = Buffer.from(given.toLowerCase());
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
