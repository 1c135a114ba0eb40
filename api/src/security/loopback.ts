import type { FastifyRequest } from 'fastify';
import { notFound } from '../http/envelope';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** Whether the connection itself comes from this machine: the socket's address, never a header. */
export const isLoopbackConnection = (request: FastifyRequest) => LOOPBACK.test(request.socket.remoteAddress ?? '');

/** onRequest hook of the development pages: from another machine they do not exist. */
export async function loopbackOnly(request: FastifyRequest): Promise<void> {
  if (!isLoopbackConnection(request)) throw notFound('No such route.');
}
