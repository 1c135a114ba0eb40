/**
 * Default ports of every deployment. Everything shifts by PORT_OFFSET so several copies of the
 * whole system (a developer's and the end-to-end tests') can run side by side.
 */
export const BASE_PORTS = {
  shell: 3000,
  storefront: 3001,
  account: 3002,
  partner: 3003,
  organiser: 3004,
  certificate: 3005,
  api: 4000,
  paymentSandbox: 5000, // far from 4000+offset, so copies at offsets 100 apart never collide
};

export const REMOTE_NAMES = ['storefront', 'account', 'partner', 'organiser', 'certificate'];

export function portOffset(env = process.env) {
  const raw = env.PORT_OFFSET ?? '0';
  const offset = Number.parseInt(raw, 10);
  if (Number.isNaN(offset)) throw new Error(`PORT_OFFSET must be a number, got "${raw}"`);
  return offset;
}

export function portsFor(offset = portOffset()) {
  return Object.fromEntries(Object.entries(BASE_PORTS).map(([key, port]) => [key, port + offset]));
}

const current = portsFor();
export const SHELL_PORT = current.shell;
export const REMOTE_PORTS = Object.fromEntries(REMOTE_NAMES.map((name) => [name, current[name]]));
