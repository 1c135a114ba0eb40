/**
 * PayU form protocol: the exact field orders that are hashed with SHA-512. Kept free of any crypto
 * library so the browser bundle can import shared without Node modules; the server and the sandbox
 * gateway hash these strings with SHA-512 (hex, lower case).
 */

/** The five user-defined fields PayU echoes back; we use udf1 for the order reference. */
export interface PayuUdf {
  udf1?: string;
  udf2?: string;
  udf3?: string;
  udf4?: string;
  udf5?: string;
}

export interface PayuRequestFields extends PayuUdf {
  key: string;
  txnid: string;
  amount: string;
  productinfo: string;
  firstname: string;
  email: string;
}

/** What PayU posts back: the request's fields plus the outcome. */
export interface PayuResponseFields extends PayuRequestFields {
  status: string;
  /** Convenience fee PayU added on top of amount; present only when it charged one. */
  additionalCharges?: string;
}

const udfs = (f: PayuUdf) => [f.udf1 ?? '', f.udf2 ?? '', f.udf3 ?? '', f.udf4 ?? '', f.udf5 ?? ''];

/** key|txnid|amount|productinfo|firstname|email|udf1|udf2|udf3|udf4|udf5||||||SALT */
export function payuRequestHashInput(fields: PayuRequestFields, salt: string): string {
  return [fields.key, fields.txnid, fields.amount, fields.productinfo, fields.firstname, fields.email, ...udfs(fields), '', '', '', '', '', salt].join('|');
}

/**
 * SALT|status||||||udf5|udf4|udf3|udf2|udf1|email|firstname|productinfo|amount|txnid|key, preceded
 * by additionalCharges| when the return carries additionalCharges (PayU's own SDK hashes it so).
 */
export function payuReverseHashInput(fields: PayuResponseFields, salt: string): string {
  const base = [
    salt,
    fields.status,
    '',
    '',
    '',
    '',
    '',
    ...udfs(fields).reverse(),
    fields.email,
    fields.firstname,
    fields.productinfo,
    fields.amount,
    fields.txnid,
    fields.key,
  ];
  return (fields.additionalCharges === undefined ? base : [fields.additionalCharges, ...base]).join('|');
}

/** key|command|var1|SALT, the hash of a server-to-server call such as verify_payment. */
export function payuCommandHashInput(key: string, command: string, var1: string, salt: string): string {
  return [key, command, var1, salt].join('|');
}

/** PayU amounts travel as text with two decimals ("590.00"); the hash covers exactly this text. */
export function payuAmount(rupees: number): string {
  return rupees.toFixed(2);
}
