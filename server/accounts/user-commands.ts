import type { Command } from 'commander';
import type { PlanCode } from '#shared/domain/plans.ts';
import { loadConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import type { PlanChangeResult } from './plan-change.ts';
import { readAccountSettings } from './settings.ts';
import { addUser, formatUserList, listUsers, removeUsersByEmail } from './user-admin.ts';

/** What the `user` commands borrow from the command line's set-up. */
export type UserCommandContext = {
  parsePlan: (value: string) => PlanCode;
  withDatabase: <T>(task: (db: Db) => Promise<T>) => Promise<T>;
};

/** The lines `set-plan` prints about searches paused or resumed by the change. */
export function describePlanChanges(changes: readonly PlanChangeResult[]): string[] {
  const paused = changes.reduce((sum, change) => sum + change.pausedSearchIds.length, 0);
  const resumed = changes.reduce((sum, change) => sum + change.resumedSearchIds.length, 0);
  const textOff = changes.reduce((sum, change) => sum + change.textOffSearchIds.length, 0);
  return [
    ...(paused > 0 ? [`Paused ${paused} search(es) over the plan's limit (newest first).`] : []),
    ...(resumed > 0 ? [`Resumed ${resumed} paused search(es).`] : []),
    ...(textOff > 0 ? [`Turned text alerts off on ${textOff} search(es).`] : []),
  ];
}

/** Adds `user add`, `user list` and `user remove` to the `shelfwatch` command line. */
export function registerUserCommands(program: Command, context: UserCommandContext): void {
  const user = program.command('user').description('accounts (without a sign-up page)');

  user
    .command('add')
    .argument('<email>', 'the email the person signs in with')
    .option('--plan <plan>', 'good, better or best', context.parsePlan, 'good' as PlanCode)
    .description('create an account and print a one-time link to choose its password')
    .action(async (email: string, options: { plan: PlanCode }) => {
      const settings = readAccountSettings(loadConfig());
      const added = await context.withDatabase((db) =>
        addUser(db, settings, { email, ...options }),
      );
      console.log(
        added.isNew
          ? `Created ${email.trim().toLowerCase()} on the ${added.plan} plan.`
          : `${email.trim().toLowerCase()} already has an account (plan ${added.plan}; change it with set-plan).`,
      );
      console.log(
        `Send this link to choose a password (works once, until ${added.link.expiresAt.toISOString()}):`,
      );
      console.log(added.link.url);
    });

  user
    .command('list')
    .description('every account: email, plan, searches and when it was created')
    .action(async () => {
      console.log(formatUserList(await context.withDatabase((db) => listUsers(db))));
    });

  user
    .command('remove')
    .argument('<email>', 'the account email')
    .description(
      'delete an account as "Delete my account" does: searches, push subscriptions, alerts, login',
    )
    .action(async (email: string) => {
      const settings = readAccountSettings(loadConfig());
      const count = await context.withDatabase((db) =>
        removeUsersByEmail(db, email, { login: settings.login }),
      );
      if (count === 0) {
        throw new Error(`No account with email ${email}`);
      }
      console.log(`Removed ${count} account(s) with email ${email}.`);
    });
}
