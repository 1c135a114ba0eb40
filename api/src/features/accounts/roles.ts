import type { Db } from '../../db/db';
import { AppError } from '../../http/envelope';
import { findUserByEmail, type UserRow } from './users';

/**
 * Who becomes an organiser (or an operator) is not the runner's to say: an operator grants the role,
 * by `pnpm admin grant-organiser <email>` on the server or by the operator's API call, and the demo
 * seed goes through this same function. Every grant and revocation is recorded in role_changes.
 */
export type GrantableRole = 'organiser' | 'operator' | 'fulfilment';
export interface RoleChangeBy {
  userId: number | null;
  via: 'cli' | 'api' | 'seed';
}

export const NO_ACCOUNT_MESSAGE = 'There is no account with this email. Ask them to sign up first, then grant the role.';

const COLUMN: Record<GrantableRole, string> = { organiser: 'is_organiser', operator: 'is_operator', fulfilment: 'is_fulfilment' };

/** Grants or takes back a role of the account with this email; returns the account as it is now. */
export async function setRole(db: Db, email: string, role: GrantableRole, grant: boolean, by: RoleChangeBy): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    if (!user) throw new AppError(404, NO_ACCOUNT_MESSAGE);
    const column = COLUMN[role];
    const changed = await tx.query(`update users set ${column} = $2 where id = $1 and ${column} is distinct from $2 returning id`, [user.id, grant]);
    if (changed.length > 0) {
      if (role === 'fulfilment') {
        // Its own record (migration 120): role_changes' check names the two older roles only.
        await tx.query('insert into fulfilment_role_changes (user_id, granted, changed_by, via) values ($1, $2, $3, $4)', [user.id, grant, by.userId, by.via]);
      } else {
        await tx.query('insert into role_changes (user_id, role, granted, changed_by, via) values ($1, $2, $3, $4, $5)', [
          user.id,
          role,
          grant,
          by.userId,
          by.via,
        ]);
      }
    }
    return { ...user, [column]: grant } as UserRow;
  });
}
