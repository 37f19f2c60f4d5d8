// The cold-cache variant of bench:api (issue 27): signed-in reads rotating over 10,000 users,
// more than the API's user cache (5,000) and search-list cache (1,000) hold, so every request
// reads its user and its searches from PostgreSQL.
import { sql } from 'kysely';
import type { Db } from '#server/db/database.ts';
import type { LoadOptions, LoadResult, RequestVariant } from './load.ts';
import { computeRatio, pickMedianRound, type Round, type TargetCheck } from './report.ts';

/** Users the cold loads rotate over. */
export const COLD_USERS = 10_000;
/** Cold my_searches against bare Fastify, and its p99. */
export const COLD_MY_SEARCHES_MIN_RATIO = 0.2;
export const COLD_MY_SEARCHES_MAX_P99_MS = 50;
/** Cold inventory of one search against bare Fastify. */
export const COLD_INVENTORY_MIN_RATIO = 0.15;
/** A p99 from fewer answers than this says nothing about the tail. */
export const MIN_P99_SAMPLES = 100;

/**
 * A cold route's rounds (each a bare Fastify run and then the route), and per round the
 * statements the API sent during the route's run per answer it gave.
 */
export type ColdFigures = {
  label: 'cold my_searches' | 'cold inventory';
  rounds: Round[];
  statementsPerAnswer: number[];
};

/** A user of the rotation: their bearer header and their oldest search. */
export type ColdUser = { headers: Record<string, string>; firstSearchId: string };

/**
 * Every seeded user with a search, after lifting Good accounts (one search each, refused on
 * the web) to Better so that all 10,000 can read: the cold loads run after the warm ones,
 * whose figures this cannot touch. `issueToken` signs each user's bearer token once.
 */
export async function prepareColdUsers(
  db: Db,
  issuer: string,
  issueToken: (user: { subject: string; email: string }) => Promise<string>,
): Promise<ColdUser[]> {
  await db
    .updateTable('users')
    .set({ plan: 'better' })
    .where('issuer', '=', issuer)
    .where('plan', '=', 'good')
    .execute();
  const rows = await sql<{ subject: string; email: string; first_search_id: string }>`
    select u.subject, u.email,
      (select s.id from searches s where s.user_id = u.id order by s.created_at, s.id limit 1)
        as first_search_id
    from users u
    where u.issuer = ${issuer}
      and exists (select 1 from searches s where s.user_id = u.id)
    order by u.subject
    limit ${COLD_USERS}`.execute(db);
  const users: ColdUser[] = [];
  // Signed a few at a time: RS256 signing is the slow part, and it is only setup.
  for (let start = 0; start < rows.rows.length; start += 200) {
    const batch = rows.rows.slice(start, start + 200);
    users.push(
      ...(await Promise.all(
        batch.map(async (row) => ({
          headers: { authorization: `Bearer ${await issueToken(row)}` },
          firstSearchId: row.first_search_id,
        })),
      )),
    );
  }
  return users;
}

/** The cold routes' request rotations, users in turn. */
export function listColdRoutes(
  users: readonly ColdUser[],
): { label: ColdFigures['label']; variants: RequestVariant[] }[] {
  return [
    {
      label: 'cold my_searches',
      variants: users.map((user) => ({ path: '/v2/searches/my_searches', headers: user.headers })),
    },
    {
      label: 'cold inventory',
      variants: users.map((user) => ({
        path: `/v2/searches/${user.firstSearchId}/inventory`,
        headers: user.headers,
      })),
    },
  ];
}

/**
 * Loads a cold route for `rounds` rounds, each bare Fastify first, after a warm-up load of
 * `warmupSeconds` on the route, as the warm routes are.
 */
export async function measureColdRoute(options: {
  label: ColdFigures['label'];
  route: Omit<LoadOptions, 'durationSeconds'>;
  bare: Omit<LoadOptions, 'durationSeconds'>;
  rounds: number;
  durationSeconds: number;
  bareSeconds: number;
  warmupSeconds: number;
  runLoad: (options: LoadOptions) => Promise<LoadResult>;
  waitForIdle: () => Promise<void>;
  /** Statements the API's connections have sent so far. */
  readStatementCount: () => number;
}): Promise<ColdFigures> {
  const rounds: Round[] = [];
  const statementsPerAnswer: number[] = [];
  if (options.warmupSeconds > 0) {
    await options.runLoad({ ...options.route, durationSeconds: options.warmupSeconds });
  }
  for (let round = 0; round < options.rounds; round += 1) {
    await options.waitForIdle();
    const bare = await options.runLoad({ ...options.bare, durationSeconds: options.bareSeconds });
    const before = options.readStatementCount();
    const load = await options.runLoad({
      ...options.route,
      durationSeconds: options.durationSeconds,
    });
    const sent = options.readStatementCount() - before;
    rounds.push({ load, bare });
    statementsPerAnswer.push(load.responses === 0 ? 0 : sent / load.responses);
  }
  await options.waitForIdle();
  return { label: options.label, rounds, statementsPerAnswer };
}

/** `cold my_searches: ratio R, p99 P ms` of the median round; no p99 from too few answers. */
export function formatColdLine(figures: ColdFigures): string {
  const round = pickMedianRound(figures.rounds);
  const p99 =
    round.load.latencySamples >= MIN_P99_SAMPLES
      ? `p99 ${round.load.p99Ms} ms`
      : `p99 n/a (${round.load.latencySamples} answers, fewer than ${MIN_P99_SAMPLES})`;
  return `${figures.label}: ratio ${computeRatio(round).toFixed(3)}, ${p99}`;
}

/** The issue 27 targets of the cold routes. */
export function checkColdTargets(figures: readonly ColdFigures[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const figure of figures) {
    const round = pickMedianRound(figure.rounds);
    const ratio = computeRatio(round);
    const minRatio =
      figure.label === 'cold my_searches' ? COLD_MY_SEARCHES_MIN_RATIO : COLD_INVENTORY_MIN_RATIO;
    checks.push({
      description: `${figure.label}: ratio ${ratio.toFixed(3)} >= ${minRatio}`,
      isMet: ratio >= minRatio,
    });
    if (figure.label === 'cold my_searches') {
      const hasSamples = round.load.latencySamples >= MIN_P99_SAMPLES;
      checks.push({
        description: hasSamples
          ? `${figure.label}: p99 ${round.load.p99Ms} ms < ${COLD_MY_SEARCHES_MAX_P99_MS} ms`
          : `${figure.label}: p99 from ${round.load.latencySamples} answers (needs ${MIN_P99_SAMPLES})`,
        isMet: hasSamples && round.load.p99Ms < COLD_MY_SEARCHES_MAX_P99_MS,
      });
    }
  }
  return checks;
}
