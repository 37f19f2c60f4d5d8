import { sql } from 'kysely';
import type { CountryFreshness } from '#shared/api/watch.ts';
import type { Executor } from '#server/db/database.ts';

/** A country without store groups yet. */
export const NO_GROUPS: CountryFreshness = {
  groups: 0,
  overdue_groups: 0,
  unchecked_groups: 0,
  oldest_check_at: null,
  newest_check_at: null,
};

/**
 * Per watched country: its store groups, those last covered before `staleBefore` (overdue, as
 * countOverdueTargets counts them), those never covered yet, and the oldest and newest coverage.
 */
export async function listCountryFreshness(
  db: Executor,
  staleBefore: Date,
): Promise<Map<string, CountryFreshness>> {
  const rows = await db
    .selectFrom('poll_targets')
    .select((eb) => [
      'country_code',
      eb.fn.countAll<string>().as('groups'),
      sql<string>`count(*) filter (where last_covered_at < ${staleBefore})`.as('overdue'),
      sql<string>`count(*) filter (where last_covered_at is null)`.as('unchecked'),
      eb.fn.min('last_covered_at').as('oldest'),
      eb.fn.max('last_covered_at').as('newest'),
    ])
    .groupBy('country_code')
    .execute();
  return new Map(
    rows.map((row) => [
      row.country_code,
      {
        groups: Number(row.groups),
        overdue_groups: Number(row.overdue),
        unchecked_groups: Number(row.unchecked),
        oldest_check_at: row.oldest?.toISOString() ?? null,
        newest_check_at: row.newest?.toISOString() ?? null,
      },
    ]),
  );
}
