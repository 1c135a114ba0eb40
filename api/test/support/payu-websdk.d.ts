// PayU's Node SDK ships no types; the tests use its hasher as an independent reference.
declare module 'payu-websdk/utils/hasher.js' {
  interface Credentials {
    key: string;
    salt: string;
    config?: { useSplitHash?: boolean };
  }
  const hasher: {
    generateHash(hashString: string): string;
    apiHasher(credes: Credentials, params: Record<string, string>): string;
    paymentHasher(credes: Credentials, params: Record<string, string>): string;
    reverseHasher(credes: Credentials, params: Record<string, string>): string;
  };
  export default hasher;
}
