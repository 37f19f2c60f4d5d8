import type { PlanCode } from '#shared/domain/plans.ts';
import type { Db } from '#server/db/database.ts';
import { findUsersByEmail } from '#server/db/repositories/users-repository.ts';
import { deleteAccount, type AccountDeletionDependencies } from './delete-account.ts';
import { applyPlanChange, type PlanChangeResult } from './plan-change.ts';
import { createFinishSetupLink, provisionAccount, type FinishSetupLink } from './provision.ts';
import type { AccountSettings } from './settings.ts';

/** A line of `shelfwatch user list`. */
export type UserListEntry = {
  email: string | null;
  plan: PlanCode;
  searches: number;
  pausedSearches: number;
  createdAt: Date;
};

/**
 * `user add`: the account of `email` on `plan` (created when missing) and a finish-setup
 * link to hand to the person. An existing account keeps its plan; its link sets a new password.
 */
export async function addUser(
  db: Db,
  settings: Pick<AccountSettings, 'login' | 'publicUrl'>,
  input: { email: string; plan: PlanCode },
): Promise<{ isNew: boolean; plan: PlanCode; link: FinishSetupLink }> {
  const { user, isNew } = await provisionAccount(db, settings, input);
  const link = await createFinishSetupLink(db, settings, user);
  return { isNew, plan: user.plan, link };
}

/** `user list`: every account, oldest first, with its number of searches. */
export async function listUsers(db: Db): Promise<UserListEntry[]> {
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('searches as s', 's.user_id', 'u.id')
    .select(['u.email', 'u.plan', 'u.created_at'])
    .select((eb) => eb.fn.count<number>('s.id').as('searches'))
    .select((eb) => eb.fn.count<number>('s.paused_at').as('paused_searches'))
    .groupBy('u.id')
    .orderBy('u.created_at')
    .orderBy('u.id')
    .execute();
  return rows.map((row) => ({
    email: row.email,
    plan: row.plan,
    searches: Number(row.searches),
    pausedSearches: Number(row.paused_searches),
    createdAt: row.created_at,
  }));
}

/** `user remove`: deletes every account of `email` as "Delete my account" does; answers how many. */
export async function removeUsersByEmail(
  db: Db,
  email: string,
  deps: AccountDeletionDependencies,
): Promise<number> {
  const users = await findUsersByEmail(db, email.trim());
  for (const user of users) {
    await deleteAccount(db, user, deps);
  }
  return users.length;
}

/** `set-plan`: puts every account of `email` on `plan`, pausing or resuming searches. */
export async function setPlanByEmail(
  db: Db,
  email: string,
  plan: PlanCode,
): Promise<PlanChangeResult[]> {
  const users = await findUsersByEmail(db, email.trim());
  const results: PlanChangeResult[] = [];
  for (const user of users) {
    const result = await applyPlanChange(db, user.id, plan);
    if (result !== undefined) results.push(result);
  }
  return results;
}

/** One aligned line per account for the terminal. */
export function formatUserList(entries: readonly UserListEntry[]): string {
  if (entries.length === 0) {
    return 'No accounts yet.';
  }
  const rows = [
    ['EMAIL', 'PLAN', 'SEARCHES', 'CREATED'],
    ...entries.map((entry) => [
      entry.email ?? '(no email)',
      entry.plan,
      entry.pausedSearches > 0
        ? `${entry.searches} (${entry.pausedSearches} paused)`
        : String(entry.searches),
      entry.createdAt.toISOString().slice(0, 16).replace('T', ' '),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column])))
        .join('  '),
    )
    .join('\n');
}
