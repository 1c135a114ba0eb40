import type { AppConfig } from '../config/config';
import { payuCommandHash } from './payuHash';

/** What the gateway said to one refund request. */
export type RefundAnswer = { ok: true; requestId: string } | { ok: false; error: string };

/**
 * Asks PayU to refund part or all of a captured payment: `cancel_refund_transaction` posted to the
 * postservice address (PAYU_VERIFY_URL), var1 the payment's mihpayid, var2 our token of this refund
 * (PayU refunds a token once, so asking again after a lost answer is safe), var3 the amount in rupees,
 * hash sha512(key|command|var1|salt). Never throws: a gateway that cannot be reached, answers with an
 * HTTP error or refuses is an answer with its error, and the caller keeps the refund pending.
 */
export async function refundPayment(config: AppConfig, input: { mihpayid: string; token: string; amount: number }): Promise<RefundAnswer> {
  if (!config.payu.verifyUrl) return { ok: false, error: 'Refunds need the gateway address (PAYU_VERIFY_URL).' };
  const command = 'cancel_refund_transaction';
  const body = new URLSearchParams({
    key: config.payu.key,
    command,
    var1: input.mihpayid,
    var2: input.token,
    var3: input.amount.toFixed(2),
    hash: payuCommandHash(config.payu.key, command, input.mihpayid, config.payu.salt),
  });
  try {
    const response = await fetch(config.payu.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    const data = (await response.json().catch(() => ({}))) as { status?: number | string; msg?: string; request_id?: string | number };
    if (!response.ok) return { ok: false, error: `The gateway answered HTTP ${response.status}${data.msg ? `: ${data.msg}` : ''}` };
    if (Number(data.status) !== 1 || !data.request_id) return { ok: false, error: `The gateway refused the refund: ${String(data.msg ?? 'no reason given')}` };
    return { ok: true, requestId: String(data.request_id) };
  } catch (error) {
    return { ok: false, error: `The gateway could not be reached: ${String((error as Error)?.message ?? error)}` };
  }
}
