import type { FastifyRequest } from 'fastify';
import { EMAIL_PROOF_MESSAGES, type EmailProofNeeded, type PreauthParams } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError, notFound } from '../../http/envelope';
import { requireUser, type UserRow } from '../accounts';
import { findOrderByRef, type OrderRow } from './orderStore';
import { LINK_INVALID_MESSAGE, verifyPreauth } from './preauth';

export const ORDER_NOT_FOUND_MESSAGE = 'We could not find this order.';

type Account = Pick<UserRow, 'id' | 'email' | 'email_verified_at'>;

/**
 * What an account may do with an order: 'own' (placed under its address, and either placed while
 * signed in to it or the account proved the address), 'withheld' (placed under its address by
 * someone not signed in to it, and the address is not proven yet), or 'other'.
 */
export function accountAccessTo(order: Pick<OrderRow, 'email' | 'placed_by_user_id'>, account: Account): 'own' | 'withheld' | 'other' {
  if (order.email.toLowerCase() !== account.email.toLowerCase()) return 'other';
  return account.email_verified_at !== null || order.placed_by_user_id === account.id ? 'own' : 'withheld';
}

/**
 * The same rule as SQL over an orders row `o`, for lists: the placeholders of the account's id,
 * email and whether its address is proven. Order history, the BIB owner's Hide and anything else
 * that lists an account's orders use it.
 */
export const accountOwnsOrderSql = (o: string, idParam: string, emailParam: string, verifiedParam: string): string =>
  `(lower(${o}.email) = lower(${emailParam}) and (${verifiedParam}::boolean or ${o}.placed_by_user_id = ${idParam}::int))`;

/** Orders under the account's address that wait for it to prove the address. */
export async function withheldOrderCount(ctx: AppContext, account: Account): Promise<number> {
  if (account.email_verified_at !== null) return 0;
  const rows = await ctx.db.query<{ n: number }>(
    `select count(*)::int as n from orders o where lower(o.email) = lower($2) and o.placed_by_user_id is distinct from $1::int`,
    [account.id, account.email],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The order a caller may see: through a valid pre-authorised link (signed out is fine), or as the
 * signed-in owner (accountAccessTo). Another account's order answers exactly as an unknown
 * reference does (404), so references cannot be tested; an order of the account's own address that
 * waits for the email proof answers 403 with EmailProofNeeded, so the page offers the proof.
 */
export async function orderForCaller(ctx: AppContext, request: FastifyRequest, orderRef: string, preauth?: Partial<PreauthParams> | null): Promise<OrderRow> {
  if (preauth && (preauth.h || preauth.orderref)) {
    const link = verifyPreauth(ctx.config.signingSecret, preauth);
    if (link.orderRef.toUpperCase() !== orderRef.trim().toUpperCase()) throw new AppError(403, LINK_INVALID_MESSAGE);
    const order = await findOrderByRef(ctx.db, link.orderRef);
    if (!order || order.email.toLowerCase() !== link.email) throw new AppError(403, LINK_INVALID_MESSAGE);
    return order;
  }
  const { user } = await requireUser(ctx, request);
  const order = await findOrderByRef(ctx.db, orderRef);
  const access = order ? accountAccessTo(order, user) : 'other';
  if (!order || access === 'other') throw notFound(ORDER_NOT_FOUND_MESSAGE);
  if (access === 'withheld') {
    const needed: EmailProofNeeded = { emailProof: 'needed', email: user.email };
    throw new AppError(403, EMAIL_PROOF_MESSAGES.orderWaits(user.email), needed);
  }
  return order;
}
