import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/config';
import { tooManyRequests } from '../http/envelope';
import type { AddressRule } from './limits';

/** Keys in a shared Redis start with this, so other users of the server are not disturbed. */
const REDIS_NAMESPACE = 'finishline:limit:';

/**
 * Registers @fastify/rate-limit for the per-address rules (security/limits.ts). Nothing is limited
 * globally: a route opts in with routeLimit(), a handler counts at its own moment with
 * addressCounter(). With REDIS_URL the count lives in Redis (one count for every API process);
 * without it each process counts in memory.
 */
export async function registerAddressLimits(app: FastifyInstance, config: AppConfig): Promise<void> {
  let redis: Redis | undefined;
  if (config.redisUrl) {
    // Fail fast rather than queue: a request must not wait for Redis to come back.
    const client = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, lazyConnect: true });
    client.on('error', (err: Error) => app.log.warn({ err }, 'rate-limit store (Redis) unavailable'));
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
    // Connected before the first request; a Redis that does not answer yet is retried in the background.
    await client.connect().catch((err: Error) => app.log.warn({ err }, 'rate-limit store (Redis) not reachable at start'));
    redis = client;
  }
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: REDIS_NAMESPACE,
    // request.ip is the client as TRUST_PROXY decides it, never a header's word.
    keyGenerator: (request) => normalizeIP(request.ip),
    // Availability first: while Redis is down the limits are not applied (a warning is logged).
    skipOnError: true,
  });
}

/** The route option that limits a route per client address by the rule (each route counted on its own). */
export function routeLimit(rule: AddressRule): FastifyContextConfig {
  return {
    rateLimit: {
      max: rule.max,
      timeWindow: rule.windowSeconds * 1000,
      // Thrown as the API's own error, so the 429 is answered in the usual envelope with the rule's message.
      errorResponseBuilder: () => tooManyRequests(rule.message),
    },
  };
}

export interface AddressCounter {
  /** Refuses (429) when the address already used up the rule, without counting. */
  assertUnder(request: FastifyRequest): Promise<void>;
  /** Counts one hit; refuses (429) when that hit is past the rule. */
  hit(request: FastifyRequest): Promise<void>;
}

/**
 * A per-address count a handler takes itself: after the input and the captcha are checked (a bad
 * request must not use up the allowance), or only on failure (sign-in). Create once per feature.
 */
export function addressCounter(app: FastifyInstance, rule: AddressRule): AddressCounter {
  const limiter = app.createRateLimit({
    max: rule.max,
    timeWindow: rule.windowSeconds * 1000,
    // Counts taken in handlers share one store prefix: the rule's name keeps them apart.
    keyGenerator: (request) => `${rule.name}:${normalizeIP(request.ip)}`,
  });
  return {
    async assertUnder(request) {
      const state = await limiter(request, { increment: false });
      if (!state.isAllowed && state.remaining === 0) throw tooManyRequests(rule.message);
    },
    async hit(request) {
      const state = await limiter(request);
      if (!state.isAllowed && state.isExceeded) throw tooManyRequests(rule.message);
    },
  };
}
