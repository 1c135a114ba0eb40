import { loadConfig, type AppConfig } from '../config/config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { setRole, type GrantableRole } from '../features/accounts';
import { resealPartnerData } from '../features/partners';
import { AppError } from '../http/envelope';

/**
 * The platform operator's command line, run on the server against the configured database
 * (DATABASE_URL, or the PGlite data folder while the API is stopped: PGlite serves one process):
 *
 *   pnpm admin grant-organiser <email>    the account may create and run events
 *   pnpm admin revoke-organiser <email>
 *   pnpm admin grant-operator <email>     the account may grant the organiser role through the API
 *   pnpm admin revoke-operator <email>
 *   pnpm admin grant-fulfilment <email>   the account may work the print queue (print, ship, refund)
 *   pnpm admin revoke-fulfilment <email>
 *
 * The account must exist (the person signs up first). Every change is recorded in role_changes.
 *
 *   pnpm admin reseal-partner-data        after a key rotation (new PARTNER_DATA_KEY, the old one in
 *                                         PARTNER_DATA_PREVIOUS_KEYS): partners' bank details onto the new key
 */
const COMMANDS: Record<string, { role: GrantableRole; grant: boolean }> = {
  'grant-organiser': { role: 'organiser', grant: true },
  'revoke-organiser': { role: 'organiser', grant: false },
  'grant-operator': { role: 'operator', grant: true },
  'revoke-operator': { role: 'operator', grant: false },
  'grant-fulfilment': { role: 'fulfilment', grant: true },
  'revoke-fulfilment': { role: 'fulfilment', grant: false },
};

const ROLE_NAMES: Record<GrantableRole, string> = { organiser: 'an organiser', operator: 'an operator', fulfilment: 'fulfilment staff' };

const RESEAL = 'reseal-partner-data';

export const ADMIN_USAGE = `Usage: pnpm admin <${Object.keys(COMMANDS).join(' | ')}> <email>\n       pnpm admin ${RESEAL}`;

async function reseal(config: AppConfig): Promise<{ code: number; out: string }> {
  const db = await openDb({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    const report = await resealPartnerData(db, config.partnerDataKey, config.partnerDataPreviousKeys);
    const lines = [`${report.resealed} partner profile(s) re-sealed under key ${report.keyId}; ${report.alreadyCurrent} already were.`];
    if (report.unopened.length > 0) {
      lines.push(
        `${report.unopened.length} profile(s) could not be opened with the configured keys and were left as they are (accounts ${report.unopened.join(', ')}): add the key they were sealed with to PARTNER_DATA_PREVIOUS_KEYS and run this again.`,
      );
    }
    return { code: report.unopened.length > 0 ? 1 : 0, out: lines.join('\n') };
  } finally {
    await db.close();
  }
}

/** Runs one admin command; returns the exit code and what to print. */
export async function runAdmin(argv: string[], config = loadConfig()): Promise<{ code: number; out: string }> {
  const [command, email] = argv;
  if (command === RESEAL && argv.length === 1) return reseal(config);
  const action = command ? COMMANDS[command] : undefined;
  if (!action || !email) return { code: 2, out: ADMIN_USAGE };
  const db = await openDb({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    const user = await setRole(db, email, action.role, action.grant, { userId: null, via: 'cli' });
    const has = action.role === 'organiser' ? user.is_organiser : action.role === 'operator' ? user.is_operator : user.is_fulfilment;
    return { code: 0, out: `${user.email} (account ${user.id}) ${has ? 'is now' : 'is no longer'} ${ROLE_NAMES[action.role]}.` };
  } catch (error) {
    if (error instanceof AppError) return { code: 1, out: error.message };
    throw error;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && /admin\.[tj]s$/.test(process.argv[1])) {
  runAdmin(process.argv.slice(2)).then(
    ({ code, out }) => {
      (code === 0 ? console.log : console.error)(out);
      process.exit(code);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
