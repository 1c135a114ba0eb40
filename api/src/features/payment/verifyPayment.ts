import type { AppConfig } from '../../config/config';
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
  if (!config.payu.verifyUrl) throw new Error('verify URL not configured');
  const command = 'verify_payment';
  const body = new URLSearchParams({ key: config.payu.key, command, var1: txnid, hash: payuCommandHash(config.payu.key, command, txnid, config.payu.salt) });
  const response = await fetch(config.payu.verifyUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`verify_payment answered HTTP ${response.status}`);
  const data = (await response.json()) as { status?: number; transaction_details?: Record<string, Record<string, unknown>> };
  const details = data.transaction_details?.[txnid];
  if (!details || details.status === 'Not Found') return null;
  return { status: String(details.status ?? ''), amount: String(details.amt ?? details.amount ?? ''), mihpayid: String(details.mihpayid ?? '') };
}
