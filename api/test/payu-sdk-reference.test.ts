import { describe, expect, it } from '@jest/globals';
import payuSdk from 'payu-websdk/utils/hasher.js';
import { payuCommandHash, payuRequestHash, payuReverseHash } from '../src/payu/payuHash';

// PayU's own Node SDK (payu-websdk) computes the same hashes independently of our field lists.
const credentials = { key: 'gtKFFx', salt: 'eCwWELxi', config: {} };
const request = {
  key: 'gtKFFx',
  txnid: 'TMK2J8Q4ZP7D',
  amount: '590.00',
  productinfo: 'City Marathon 2026 BIB 42',
  firstname: 'Asha',
  email: 'asha@example.com',
  udf1: 'FL7K2M9QXD',
};
const response = { ...request, status: 'success' };

describe("our PayU hashes agree with PayU's SDK", () => {
  it('request hash', () => {
    expect(payuRequestHash(request, credentials.salt)).toBe(payuSdk.paymentHasher(credentials, request));
    expect(payuRequestHash({ ...request, udf1: '', udf3: 'x' }, credentials.salt)).toBe(
      payuSdk.paymentHasher(credentials, { ...request, udf1: '', udf3: 'x' }),
    );
  });

  it('reverse hash without additional charges, for success and failure', () => {
    expect(payuReverseHash(response, credentials.salt)).toBe(payuSdk.reverseHasher(credentials, response));
    const failure = { ...response, status: 'failure' };
    expect(payuReverseHash(failure, credentials.salt)).toBe(payuSdk.reverseHasher(credentials, failure));
  });

  it('reverse hash with additional charges: additionalCharges|SALT|status|...', () => {
    const withCharges = { ...response, additionalCharges: '11.80' };
    expect(payuReverseHash(withCharges, credentials.salt)).toBe(payuSdk.reverseHasher(credentials, withCharges));
    // The fee is covered: another fee, or the fee left out, gives another hash.
    expect(payuReverseHash({ ...response, additionalCharges: '0.00' }, credentials.salt)).not.toBe(payuSdk.reverseHasher(credentials, withCharges));
    expect(payuReverseHash(response, credentials.salt)).not.toBe(payuSdk.reverseHasher(credentials, withCharges));
  });

  it('command hashes such as verify_payment', () => {
    for (const [command, var1] of [
      ['verify_payment', 'TMK2J8Q4ZP7D'],
      ['verify_payment', 'T1|T2|T3'],
      ['check_payment', '403993715521937565'],
      ['cancel_refund_transaction', '403993715521937565'],
      ['check_action_status', '7800456'],
    ]) {
      expect(payuCommandHash(credentials.key, command, var1, credentials.salt)).toBe(payuSdk.apiHasher(credentials, { command, var1 }));
    }
  });
});
