import type { AppConfig } from '../config/config';
import { payuCommandHash } from './payuHash';

export interface VerifiedTransaction {
  status: string;
  amount: string;
  mihpayid: string;
}

/**
 * Asks the gateway, server to server, what it knows of a transaction (PayU verify_payment). Returns
 * null when the gateway does not know it. Throws when the gateway cannot be reached, so a payment is
 * never accepted on the browser's word alone while verification is configured.
 */
export async function verifyPayment(config: AppConfig, txnid: string): Promise<VerifiedTransaction | null> {
  return (await verifyPayments(config, [txnid])).get(txnid) ?? null;
}

/**
 * The same question for several transactions in one call: verify_payment takes txnids joined by
 * '|'. Each txnid maps to what the gateway knows, or null when it does not know it.
 */
export async function verifyPayments(config: AppConfig, txnids: string[]): Promise<Map<string, VerifiedTransaction | null>> {
  if (!config.payu.verifyUrl) throw new Error('verify URL not configured');
  const command = 'verify_payment';
  const var1 = txnids.join('|');
  const body = new URLSearchParams({ key: config.payu.key, command, var1, hash: payuCommandHash(config.payu.key, command, var1, config.payu.salt) });
  const response = await fetch(config.payu.verifyUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`verify_payment answered HTTP ${response.status}`);
  const data = (await response.json()) as { status?: number; msg?: string; transaction_details?: Record<string, Record<string, unknown>> };
  if (!data.transaction_details) throw new Error(`verify_payment refused the request: ${String(data.msg ?? 'no transaction details')}`);
  const result = new Map<string, VerifiedTransaction | null>();
  for (const txnid of txnids) {
    const details = data.transaction_details[txnid];
    result.set(
      txnid,
      !details || details.status === 'Not Found'
        ? null
        : { status: String(details.status ?? ''), amount: String(details.amt ?? details.amount ?? ''), mihpayid: String(details.mihpayid ?? '') },
    );
  }
  return result;
}
