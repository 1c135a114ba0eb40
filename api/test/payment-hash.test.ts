import crypto from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { payuAmount, payuCommandHashInput, payuRequestHashInput, payuReverseHashInput } from '@finishline/shared/pure';
import { payuCommandHash, payuRequestHash, payuReverseHash, sameHash } from '../src/payu/payuHash';

// Vectors written out by hand from PayU's documented field order, then hashed here with node:crypto.
const sha512 = (s: string) => crypto.createHash('sha512').update(s).digest('hex');
const KEY = 'gtKFFx';
const SALT = 'eCwWELxi';

describe('PayU hashes', () => {
  const request = {
    key: KEY,
    txnid: 'T12345',
    amount: '590.00',
    productinfo: 'City Marathon BIB 42',
    firstname: 'Asha',
    email: 'asha@example.com',
    udf1: 'FLABC',
  };

  it('request hash: key|txnid|amount|productinfo|firstname|email|udf1..udf5||||||SALT', () => {
    // udf1=FLABC, udf2..udf5 empty, then the six pipes before the salt.
    const expectedInput = 'gtKFFx|T12345|590.00|City Marathon BIB 42|Asha|asha@example.com|FLABC' + '||||' + '||||||eCwWELxi';
    expect(payuRequestHashInput(request, SALT)).toBe(expectedInput);
    expect(payuRequestHash(request, SALT)).toBe(sha512(expectedInput));
    expect(payuRequestHash(request, SALT)).toHaveLength(128);
  });

  it('request hash without udfs has sixteen pipes between email and salt', () => {
    const { udf1: _u, ...plain } = request;
    expect(payuRequestHashInput(plain, SALT)).toBe(`gtKFFx|T12345|590.00|City Marathon BIB 42|Asha|asha@example.com${'|'.repeat(11)}eCwWELxi`);
  });

  it('reverse hash: SALT|status||||||udf5|udf4|udf3|udf2|udf1|email|firstname|productinfo|amount|txnid|key', () => {
    const response = { ...request, status: 'success', udf2: 'two', udf5: 'five' };
    const expectedInput = 'eCwWELxi|success||||||five|||two|FLABC|asha@example.com|Asha|City Marathon BIB 42|590.00|T12345|gtKFFx';
    expect(payuReverseHashInput(response, SALT)).toBe(expectedInput);
    expect(payuReverseHash(response, SALT)).toBe(sha512(expectedInput));
    // A different status or amount gives a different hash.
    expect(payuReverseHash({ ...response, status: 'failure' }, SALT)).not.toBe(payuReverseHash(response, SALT));
    expect(payuReverseHash({ ...response, amount: '1.00' }, SALT)).not.toBe(payuReverseHash(response, SALT));
  });

  it('command hash: key|command|var1|SALT', () => {
    expect(payuCommandHashInput(KEY, 'verify_payment', 'T12345', SALT)).toBe('gtKFFx|verify_payment|T12345|eCwWELxi');
    expect(payuCommandHash(KEY, 'verify_payment', 'T12345', SALT)).toBe(sha512('gtKFFx|verify_payment|T12345|eCwWELxi'));
  });

  it('formats amounts with two decimals and compares hashes case-insensitively', () => {
    expect(payuAmount(590)).toBe('590.00');
    expect(payuAmount(0)).toBe('0.00');
    const h = sha512('x');
    expect(sameHash(h, h.toUpperCase())).toBe(true);
    expect(sameHash(h, sha512('y'))).toBe(false);
    expect(sameHash(h, undefined)).toBe(false);
  });
});
