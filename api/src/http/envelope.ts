import type { FastifyReply } from 'fastify';
import type { ApiEnvelope } from '@finishline/shared/pure';

/** An error a route raises on purpose: its message reaches the user as the envelope's Message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly result: unknown = null,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, message);
export const forbidden = (message = 'You are not authorized to access this page.') => new AppError(403, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const tooManyRequests = (message: string) => new AppError(429, message);

export function envelope<T>(result: T, message = 'Success', statusCode = 200): ApiEnvelope<T> {
  return { StatusCode: statusCode, Message: message, HasError: statusCode !== 200, result };
}

export function sendOk<T>(reply: FastifyReply, result: T, message = 'Success'): FastifyReply {
  return reply.code(200).send(envelope(result, message));
}
