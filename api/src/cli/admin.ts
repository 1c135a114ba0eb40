import { loadConfig } from '../config/config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { setRole, type GrantableRole } from '../features/accounts';
import { AppError } from '../http/envelope';

/**
 * The platform operator's command line, run on the server against the configured database
 * (DATABASE_URL, or the PGlite data folder while the API is stopped: PGlite serves one process):
 *
 *   pnpm admin grant-organiser <email>    the account may create and run events
 *   pnpm admin revoke-organiser <email>
 *   pnpm admin grant-operator <email>     the account may grant the organiser role through the API
 *   pnpm admin revoke-operator <email>
 *
 * The account must exist (the person signs up first). Every change is recorded in role_changes.
 */
const COMMANDS: Record<string, { role: GrantableRole; grant: boolean }> = {
  'grant-organiser': { role: 'organiser', grant: true },
  'revoke-organiser': { role: 'organiser', grant: false },
  'grant-operator': { role: 'operator', grant: true },
  'revoke-operator': { role: 'operator', grant: false },
};

export const ADMIN_USAGE = `Usage: pnpm admin <${Object.keys(COMMANDS).join(' | ')}> <email>`;

/** Runs one admin command; returns the exit code and what to print. */
export async function runAdmin(argv: string[], config = loadConfig()): Promise<{ code: number; out: string }> {
  const [command, email] = argv;
  const action = command ? COMMANDS[command] : undefined;
  if (!action || !email) return { code: 2, out: ADMIN_USAGE };
  const db = await openDb({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    const user = await setRole(db, email, action.role, action.grant, { userId: null, via: 'cli' });
    const has = action.role === 'organiser' ? user.is_organiser : user.is_operator;
    return { code: 0, out: `${user.email} (account ${user.id}) ${has ? 'is now' : 'is no longer'} ${action.role === 'organiser' ? 'an organiser' : 'an operator'}.` };
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
