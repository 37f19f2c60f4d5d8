import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * Distinct statement texts this process counts at most. Kysely writes a new text for each
 * length of an `in (...)` list or a batch insert; once this many are known, new texts simply
 * run unprepared, while the hot ones, seen early and often, keep their names.
 */
const MAX_KNOWN_TEXTS = 2_000;
/** Statements one connection keeps prepared at most (each holds a plan in the server). */
const MAX_PREPARED_PER_CONNECTION = 200;
/** Runs of one text before it is prepared: one-off statements (seeds, imports) never are. */
const RUNS_BEFORE_PREPARING = 2;
/** SQLSTATE of "cached plan must not change result type": a table changed under a plan. */
const FEATURE_NOT_SUPPORTED = '0A000';

type KnownText = { name: string; runs: number };

/**
 * A pool for Kysely's PostgresDialect whose connections run repeated statements as named
 * prepared statements. node-postgres otherwise sends every query unnamed, so PostgreSQL parses
 * and plans it each time: for the searches' one-statement reads (joins, `json_agg`, correlated
 * subqueries) planning took 1.5 ms against 0.4 ms of execution. A named statement is parsed
 * once per connection and, after five runs, PostgreSQL may keep a generic plan for it.
 *
 * A text with parameters is prepared from its RUNS_BEFORE_PREPARING-th run on, under one name
 * per text in this process; `limits` bound how many texts are counted and kept per connection.
 * When a table changed under a prepared plan so that its columns differ (a migration run by
 * another process), PostgreSQL refuses it: outside a transaction the query is retried
 * unprepared at once; in one, the transaction fails as it would for any error. Either way
 * that connection runs the text unprepared from then on.
 */
export function createPreparingPool(
  pool: pg.Pool,
  limits: { maxKnownTexts?: number; maxPreparedPerConnection?: number } = {},
): PostgresPool {
  const maxKnownTexts = limits.maxKnownTexts ?? MAX_KNOWN_TEXTS;
  const maxPrepared = limits.maxPreparedPerConnection ?? MAX_PREPARED_PER_CONNECTION;
  const known = new Map<string, KnownText>();
  // One wrapper per connection, for as long as it lives: Kysely keys its own per-connection
  // state on the object `connect` returns, so a new one per checkout would make it set up a
  // connection (and a weak-map entry) for every query.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  const nameFor = (text: string): string | undefined => {
    let entry = known.get(text);
    if (entry === undefined) {
      if (known.size >= maxKnownTexts) return undefined;
      entry = { name: `shelfwatch_${known.size + 1}`, runs: 0 };
      known.set(text, entry);
    }
    entry.runs += 1;
    return entry.runs >= RUNS_BEFORE_PREPARING ? entry.name : undefined;
  };

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const known = wrappers.get(client);
    if (known !== undefined) return known;
    // What this connection has prepared, and which of those a schema change broke.
    const prepared = new Set<string>();
    const broken = new Set<string>();
    const runQuery = async <R>(
      text: string,
      parameters: readonly unknown[],
    ): Promise<PostgresQueryResult<R>> => {
      const values = [...parameters];
      // Without parameters node-postgres uses the simple protocol, which also runs scripts of
      // several statements (migrations): those cannot be prepared, and none of them is hot.
      const name = values.length === 0 ? undefined : nameFor(text);
      const isUsable =
        name !== undefined &&
        !broken.has(name) &&
        (prepared.has(name) || prepared.size < maxPrepared);
      if (!isUsable) {
        return await sendQuery<R>(client, { text, values });
      }
      prepared.add(name);
      try {
        return await sendQuery<R>(client, { name, text, values });
      } catch (error) {
        if (!isStalePlanError(error)) throw error;
        broken.add(name);
        return await sendQuery<R>(client, { text, values });
      }
    };
    function query<R>(
      text: string,
      parameters: readonly unknown[],
    ): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(
      textOrCursor: string | PostgresCursor<R>,
      parameters: readonly unknown[] = [],
    ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      if (typeof textOrCursor === 'string') return runQuery<R>(textOrCursor, parameters);
      return client.query(
        textOrCursor as unknown as pg.Submittable,
      ) as unknown as PostgresCursor<R>;
    }
    const wrapper: PostgresPoolClient = {
      get processID() {
        return (client as pg.PoolClient & { processID?: number }).processID;
      },
      query,
      // pg-pool gives the client a new `release` at each checkout: look it up at the call.
      release: (destroy) => client.release(destroy),
    };
    wrappers.set(client, wrapper);
    return wrapper;
  };

  return {
    options: pool.options,
    connect: async () => wrap(await pool.connect()),
    end: async () => await pool.end(),
  };
}

/**
 * Runs one query through node-postgres' callback form. With its promise form (no callback),
 * results outlived their readers through young-generation collections and reached the old
 * generation: a loop of 16-user reads promoted 50 MB in 5 s that way, against 4 MB with a
 * callback (Node 24, pg 8.23), and each such megabyte brings the next full collection closer.
 */
function sendQuery<R>(
  client: pg.PoolClient,
  config: { name?: string; text: string; values: unknown[] },
): Promise<PostgresQueryResult<R>> {
  return new Promise((resolve, reject) => {
    client.query(config, (error: Error | undefined, result: pg.QueryResult) => {
      if (error) reject(error);
      else resolve(result as unknown as PostgresQueryResult<R>);
    });
  });
}

/** Whether PostgreSQL refused a prepared statement because its result columns changed. */
function isStalePlanError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as Error & { code?: unknown }).code === FEATURE_NOT_SUPPORTED &&
    error.message.includes('cached plan')
  );
}
