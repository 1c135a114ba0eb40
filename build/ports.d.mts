/** Types of ports.mjs, for the TypeScript that imports it (the end-to-end support). */
export declare const BASE_PORTS: {
  shell: number;
  storefront: number;
  account: number;
  partner: number;
  organiser: number;
  certificate: number;
  api: number;
  paymentSandbox: number;
};
export declare const REMOTE_NAMES: string[];
export declare function portOffset(env?: Record<string, string | undefined>): number;
export declare function portsFor(offset?: number): Record<keyof typeof BASE_PORTS, number>;
export declare const SHELL_PORT: number;
export declare const REMOTE_PORTS: Record<string, number>;
