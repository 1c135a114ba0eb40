import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { payuCommandHashInput, payuRequestHashInput, payuReverseHashInput } from '@finishline/shared/pure';

/**
 * A small stand-in for PayU's test environment, speaking the same form protocol: it checks the
 * request hash, shows a card form, and posts back to surl/furl from the browser with the reverse
 * hash, as the real gateway does. It also answers verify_payment server to server, and refunds:
 * cancel_refund_transaction (var1 the payment's mihpayid, var2 the merchant's token, var3 the amount;
 * a token refunds once, never more than what was paid) and check_action_status (var1 the request id).
 *
 * Its failure mode: POST /_sandbox/refund-failures { count } makes the next `count` refund calls
 * answer HTTP 503 without refunding anything, as a gateway that is down does; tests and the journey
 * use it to see a refund stay pending and go through on a later attempt.
 */

export interface SandboxOptions {
  key: string;
  salt: string;
}

/** Test cards: these succeed; FAILING_CARD is declined (PayU publishes similar test numbers). */
export const SUCCESS_CARDS = ['5123456789012346', '4012001037141112', '4111111111111111'];
export const FAILING_CARD = '4000000000000002';
/**
 * This card succeeds with a convenience fee, as PayU adds one for some payment modes: the return
 * carries additionalCharges (2% of the amount, at least ₹1) and its reverse hash begins with it.
 */
export const CONVENIENCE_FEE_CARD = '5500000000000004';
const CONVENIENCE_FEE_PERCENT = 2;
const convenienceFee = (amount: string) => Math.max(1, (Number(amount) * CONVENIENCE_FEE_PERCENT) / 100).toFixed(2);

interface Transaction {
  fields: Record<string, string>;
  status: 'pending' | 'success' | 'failure';
  mihpayid: string;
  bankRef: string;
  addedon: string;
  additionalCharges?: string | null;
}

interface Refund {
  requestId: string;
  mihpayid: string;
  token: string;
  amount: number;
  at: string;
}

/** PayU's answer to an accepted refund request (error_code 102: queued at the bank). */
export const REFUND_QUEUED_MESSAGE = 'Refund Request Queued';

const sha512 = (text: string) => crypto.createHash('sha512').update(text, 'utf8').digest('hex');
const escapeHtml = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const UDFS = ['udf1', 'udf2', 'udf3', 'udf4', 'udf5'] as const;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6fb;margin:0;padding:32px}main{max-width:440px;margin:auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 2px 12px #0001}
label{display:block;margin:12px 0 4px;font-size:14px}input{width:100%;padding:10px;font-size:16px;box-sizing:border-box;border:1px solid #ccd;border-radius:6px}
.row{display:flex;gap:12px}.row>div{flex:1}button{margin-top:18px;padding:12px 18px;font-size:16px;border:0;border-radius:6px;cursor:pointer}
.pay{background:#1f6feb;color:#fff;width:100%}.cancel{background:#eee;width:100%}.hint{color:#666;font-size:13px}.amount{font-size:22px;font-weight:600}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The auto-submitting form a browser uses to return to the merchant (PayU does the same). */
function autoPost(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  return page(
    'Returning to the merchant',
    `<p>Returning to the merchant…</p><form id="return" method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form>
<script>document.getElementById('return').submit();</script>`,
  );
}

export async function buildSandbox(options: SandboxOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(formbody);
  const transactions = new Map<string, Transaction>();
  const refunds = new Map<string, Refund>();
  let refundFailures = 0;

  app.post('/_sandbox/refund-failures', async (request, reply) => {
    const count = Number((request.body as { count?: unknown } | null)?.count ?? 0);
    refundFailures = Number.isInteger(count) && count >= 0 ? count : 0;
    return reply.send({ refundFailures });
  });

  app.get('/', async (_req, reply) =>
    reply.type('text/html').send(page('Payment sandbox', '<h1>Payment sandbox</h1><p>POST /_payment with the PayU form fields.</p>')),
  );

  app.post('/_payment', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields: Record<string, string> = {};
    for (const name of ['key', 'txnid', 'amount', 'productinfo', 'firstname', 'lastname', 'email', 'phone', 'surl', 'furl', 'hash', ...UDFS])
      fields[name] = str(body[name]);
    const missing = ['key', 'txnid', 'amount', 'productinfo', 'firstname', 'email', 'surl', 'furl', 'hash'].filter((f) => !fields[f]);
    if (missing.length)
      return reply
        .code(400)
        .type('text/html')
        .send(page('Error', `<h1>Error</h1><p id="error">Mandatory parameter missing: ${escapeHtml(missing.join(', '))}</p>`));
    if (fields.key !== options.key) return reply.code(400).type('text/html').send(page('Error', '<h1>Error</h1><p id="error">Invalid merchant key</p>'));
    const expected = sha512(
      payuRequestHashInput(
        {
          ...fields,
          key: fields.key,
          txnid: fields.txnid,
          amount: fields.amount,
          productinfo: fields.productinfo,
          firstname: fields.firstname,
          email: fields.email,
        },
        options.salt,
      ),
    );
    if (expected !== fields.hash.toLowerCase()) {
      return reply
        .code(400)
        .type('text/html')
        .send(page('Error', '<h1>Error</h1><p id="error">Transaction failed due to incorrectly calculated hash parameter.</p>'));
    }
    const existing = transactions.get(fields.txnid);
    if (existing && existing.status === 'success') {
      return reply
        .code(400)
        .type('text/html')
        .send(page('Error', '<h1>Error</h1><p id="error">Duplicate transaction id: this transaction is already paid.</p>'));
    }
    transactions.set(fields.txnid, {
      fields,
      status: 'pending',
      mihpayid: String(400_000_000_000 + crypto.randomInt(0, 99_999_999)),
      bankRef: String(crypto.randomInt(100_000_000, 999_999_999)),
      addedon: new Date().toISOString().replace('T', ' ').slice(0, 19),
    });
    const html = `<h1>Payment sandbox</h1>
<p class="hint">Test gateway: no money moves. Cards ${SUCCESS_CARDS.map(escapeHtml).join(', ')} succeed; ${CONVENIENCE_FEE_CARD} succeeds with a ${CONVENIENCE_FEE_PERCENT}% convenience fee; ${FAILING_CARD} is declined.</p>
<p>${escapeHtml(fields.productinfo)}</p><p class="amount" data-testid="sandbox-amount">₹${escapeHtml(fields.amount)}</p>
<form method="post" action="/_payment/complete">
<input type="hidden" name="txnid" value="${escapeHtml(fields.txnid)}">
<label for="ccnum">Card number</label><input id="ccnum" name="ccnum" inputmode="numeric" autocomplete="cc-number" value="">
<label for="ccname">Name on card</label><input id="ccname" name="ccname" value="${escapeHtml(fields.firstname)}">
<div class="row"><div><label for="ccexp">Expiry (MM/YY)</label><input id="ccexp" name="ccexp" value="05/30"></div><div><label for="cvv">CVV</label><input id="cvv" name="cvv" value="123"></div></div>
<button class="pay" type="submit" name="action" value="pay">Pay ₹${escapeHtml(fields.amount)}</button>
<button class="cancel" type="submit" name="action" value="cancel">Cancel</button>
</form>`;
    return reply.type('text/html').send(page('Payment sandbox', html));
  });

  app.post('/_payment/complete', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const txn = transactions.get(str(body.txnid));
    if (!txn) return reply.code(404).type('text/html').send(page('Error', '<h1>Error</h1><p id="error">Unknown transaction</p>'));
    if (txn.status !== 'pending')
      return reply.code(400).type('text/html').send(page('Error', '<h1>Error</h1><p id="error">This transaction is already complete.</p>'));
    const card = str(body.ccnum).replace(/\s/g, '');
    const cancelled = str(body.action) === 'cancel';
    const withFee = !cancelled && card === CONVENIENCE_FEE_CARD;
    const success = !cancelled && (SUCCESS_CARDS.includes(card) || withFee);
    let error = 'E000';
    let errorMessage = 'No Error';
    if (cancelled) [error, errorMessage] = ['E1605', 'Transaction cancelled by user'];
    else if (card === FAILING_CARD) [error, errorMessage] = ['E308', 'Card declined by the issuing bank'];
    else if (!success) [error, errorMessage] = ['E311', 'Invalid card number'];
    txn.status = success ? 'success' : 'failure';

    const f = txn.fields;
    const status = success ? 'success' : 'failure';
    txn.additionalCharges = withFee ? convenienceFee(f.amount) : null;
    const charges: Record<string, string> = txn.additionalCharges === null ? {} : { additionalCharges: txn.additionalCharges };
    // The merchant's own fields come back as they were sent, in the reverse hash and in the post.
    const udfs = { udf1: f.udf1, udf2: f.udf2, udf3: f.udf3, udf4: f.udf4, udf5: f.udf5 };
    const reverse = sha512(
      payuReverseHashInput(
        {
          key: f.key,
          txnid: f.txnid,
          amount: f.amount,
          productinfo: f.productinfo,
          firstname: f.firstname,
          email: f.email,
          status,
          ...udfs,
          ...charges,
        },
        options.salt,
      ),
    );
    const returned: Record<string, string> = {
      mihpayid: txn.mihpayid,
      mode: 'CC',
      status,
      unmappedstatus: cancelled ? 'userCancelled' : status === 'success' ? 'captured' : 'failed',
      key: f.key,
      txnid: f.txnid,
      amount: f.amount,
      addedon: txn.addedon,
      productinfo: f.productinfo,
      firstname: f.firstname,
      lastname: f.lastname,
      email: f.email,
      phone: f.phone,
      ...udfs,
      ...charges,
      hash: reverse,
      field9: errorMessage,
      PG_TYPE: 'CC-PG',
      bank_ref_num: success ? txn.bankRef : '',
      bankcode: 'CC',
      error,
      error_Message: errorMessage,
      cardnum: card.length >= 10 ? `${card.slice(0, 6)}XXXXXX${card.slice(-4)}` : '',
    };
    return reply.type('text/html').send(autoPost(success ? f.surl : f.furl, returned));
  });

  app.post('/merchant/postservice', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const key = str(body.key);
    const command = str(body.command);
    const var1 = str(body.var1);
    if (key !== options.key || sha512(payuCommandHashInput(key, command, var1, options.salt)) !== str(body.hash).toLowerCase()) {
      return reply.send({ status: 0, msg: 'Invalid Hash.' });
    }
    if (command === 'cancel_refund_transaction') {
      if (refundFailures > 0) {
        refundFailures--;
        return reply.code(503).send({ status: 0, msg: 'Service temporarily unavailable. Please retry.' });
      }
      const token = str(body.var2);
      const amount = Number(str(body.var3));
      const done = refunds.get(token);
      // The same token again: the request already made, never a second refund.
      if (done)
        return reply.send({ status: 1, msg: REFUND_QUEUED_MESSAGE, request_id: done.requestId, bank_ref_num: null, mihpayid: done.mihpayid, error_code: 102 });
      const txn = [...transactions.values()].find((t) => t.mihpayid === var1 && t.status === 'success');
      if (!txn) return reply.send({ status: 0, msg: 'Invalid payuid or transaction not captured', error_code: 104 });
      if (!token) return reply.send({ status: 0, msg: 'Token is mandatory', error_code: 105 });
      if (!(amount > 0) || !/^\d+(\.\d{1,2})?$/.test(str(body.var3))) return reply.send({ status: 0, msg: 'Invalid amount', error_code: 106 });
      const refunded = [...refunds.values()].filter((r) => r.mihpayid === var1).reduce((sum, r) => sum + r.amount, 0);
      if (Math.round((refunded + amount) * 100) > Math.round(Number(txn.fields.amount) * 100)) {
        return reply.send({ status: 0, msg: 'Refund amount greater than the amount left of the transaction', error_code: 107 });
      }
      const refund: Refund = {
        requestId: String(crypto.randomInt(100_000_000, 999_999_999)),
        mihpayid: var1,
        token,
        amount,
        at: new Date().toISOString().replace('T', ' ').slice(0, 19),
      };
      refunds.set(token, refund);
      return reply.send({ status: 1, msg: REFUND_QUEUED_MESSAGE, request_id: refund.requestId, bank_ref_num: null, mihpayid: var1, error_code: 102 });
    }
    if (command === 'check_action_status') {
      const refund = [...refunds.values()].find((r) => r.requestId === var1);
      if (!refund) return reply.send({ status: 0, msg: 'No action status found' });
      return reply.send({
        status: 1,
        msg: '1 out of 1 requests fetched successfully',
        transaction_details: {
          [var1]: {
            [refund.mihpayid]: {
              mihpayid: refund.mihpayid,
              request_id: refund.requestId,
              amount: refund.amount.toFixed(2),
              action: 'refund',
              token: refund.token,
              status: 'success',
              bank_ref_num: refund.requestId,
              request_time: refund.at,
            },
          },
        },
      });
    }
    if (command !== 'verify_payment') return reply.send({ status: 0, msg: `Unknown command ${command}` });
    const details: Record<string, unknown> = {};
    for (const txnid of var1.split('|').filter(Boolean)) {
      const txn = transactions.get(txnid);
      details[txnid] = txn
        ? {
            mihpayid: txn.mihpayid,
            request_id: '',
            bank_ref_num: txn.status === 'success' ? txn.bankRef : '',
            amt: txn.fields.amount,
            transaction_amount: txn.fields.amount,
            txnid,
            additional_charges: txn.additionalCharges ?? '0.00',
            productinfo: txn.fields.productinfo,
            firstname: txn.fields.firstname,
            bankcode: 'CC',
            udf1: txn.fields.udf1,
            status: txn.status,
            unmappedstatus: txn.status === 'success' ? 'captured' : txn.status,
            addedon: txn.addedon,
          }
        : { mihpayid: 'Not Found', status: 'Not Found' };
    }
    const found = Object.values(details).filter((d) => (d as { status: string }).status !== 'Not Found').length;
    return reply.send({ status: 1, msg: `${found} out of ${Object.keys(details).length} Transactions Fetched Successfully`, transaction_details: details });
  });

  return app;
}
