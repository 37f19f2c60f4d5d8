import { sql, type Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type { EgressAddressesTable } from '../schema.ts';

/** An egress address row. */
export type EgressAddressRow = Selectable<EgressAddressesTable>;

/** An address as a process declares it. */
export type EgressDeclaration = {
  label: string;
  kind: 'direct' | 'proxy';
  ratePerMinute: number;
  burst: number;
};

// Tokens an address holds at $at: the stored count plus what the rate earned since the last
// refill (nothing accrues before `refilled_at`, which a cool-down pushes into the future).
function tokensAt(at: Date) {
  return sql<number>`least(burst, tokens + greatest(0, extract(epoch from (${at}::timestamptz - refilled_at))) * rate_per_minute / 60.0)`;
}

/**
 * Declares this process's addresses (a full bucket for a new one); an existing address keeps
 * its bucket and takes the declared rate and burst.
 */
export async function declareEgressAddresses(
  db: Executor,
  addresses: readonly EgressDeclaration[],
  at: Date,
): Promise<void> {
  if (addresses.length === 0) return;
  await db
    .insertInto('egress_addresses')
    .values(
      addresses.map((address) => ({
        label: address.label,
        kind: address.kind,
        rate_per_minute: address.ratePerMinute,
        burst: address.burst,
        tokens: address.burst,
        refilled_at: at,
        last_seen_at: at,
      })),
    )
    .onConflict((conflict) =>
      conflict.column('label').doUpdateSet((eb) => ({
        kind: eb.ref('excluded.kind'),
        rate_per_minute: eb.ref('excluded.rate_per_minute'),
        burst: eb.ref('excluded.burst'),
        last_seen_at: eb.ref('excluded.last_seen_at'),
      })),
    )
    .execute();
}

/**
 * Takes one token from whichever of the labelled addresses has the most, skipping addresses
 * in cool-down; answers the label, or undefined when none has a token now. One statement with
 * a row lock, so processes sharing an address never overspend its bucket.
 */
export async function takeEgressToken(
  db: Executor,
  labels: readonly string[],
  at: Date,
): Promise<string | undefined> {
  if (labels.length === 0) return undefined;
  const row = await sql<{ label: string }>`
    update egress_addresses
    set tokens = ${tokensAt(at)} - 1,
        refilled_at = greatest(refilled_at, ${at}::timestamptz),
        requests = requests + 1
    where label = (
      select label from egress_addresses
      where label = any(${labels}::text[])
        and (cool_down_until is null or cool_down_until <= ${at}::timestamptz)
        and ${tokensAt(at)} >= 1
      order by ${tokensAt(at)} desc, label
      limit 1
      for update skip locked
    )
    and ${tokensAt(at)} >= 1
    returning label`.execute(db);
  return row.rows[0]?.label;
}

/** When the first of the labelled addresses will have a token (epoch ms); undefined without addresses. */
export async function findNextTokenAt(
  db: Executor,
  labels: readonly string[],
  at: Date,
): Promise<number | undefined> {
  if (labels.length === 0) return undefined;
  const rows = await db
    .selectFrom('egress_addresses')
    .select(['rate_per_minute', 'refilled_at', 'cool_down_until'])
    .select(tokensAt(at).as('tokens_now'))
    .where('label', 'in', labels)
    .execute();
  let earliest: number | undefined;
  for (const row of rows) {
    const tokens = Number(row.tokens_now);
    const refillFrom = Math.max(row.refilled_at.getTime(), at.getTime());
    const ready =
      tokens >= 1 ? refillFrom : refillFrom + ((1 - tokens) * 60_000) / row.rate_per_minute;
    const when = Math.max(ready, row.cool_down_until?.getTime() ?? 0);
    earliest = earliest === undefined ? when : Math.min(earliest, when);
  }
  return earliest;
}

/** Records an answer through an address: its block streak ends. */
export async function recordEgressSuccess(db: Executor, label: string, at: Date): Promise<void> {
  await db
    .updateTable('egress_addresses')
    .set({ last_success_at: at, consecutive_blocks: 0 })
    .where('label', '=', label)
    .execute();
}

/**
 * Records a block (541, 503, 429, a challenge page): the address cools down for the base
 * time doubled per block in a row, at most `maxMs`, or longer when upstream said so; then it
 * resumes with one token. Answers the cool-down's end.
 */
export async function recordEgressBlock(
  db: Executor,
  label: string,
  block: {
    at: Date;
    kind: string;
    baseMs: number;
    maxMs: number;
    hintedMs: number;
    /** A probe of the other endpoint shape: a 541 there is expected, so it does not escalate. */
    isProbe?: boolean;
  },
): Promise<Date> {
  const step = block.isProbe === true ? 0 : 1;
  const row = await db
    .updateTable('egress_addresses')
    .set((eb) => {
      const doubled = sql<number>`least(${block.maxMs}::double precision, ${block.baseMs}::double precision * power(2, greatest(0, least(consecutive_blocks + ${step} - 1, 20))))`;
      const until = sql<Date>`greatest(coalesce(cool_down_until, ${block.at}::timestamptz), ${block.at}::timestamptz + make_interval(secs => greatest(${doubled}, ${block.hintedMs}::double precision) / 1000.0))`;
      return {
        consecutive_blocks: eb('consecutive_blocks', '+', step),
        last_block_at: block.at,
        last_failure_at: block.at,
        last_failure_kind: block.kind,
        cool_down_until: until,
        refilled_at: until,
        tokens: 1,
      };
    })
    .where('label', '=', label)
    .returning('cool_down_until')
    .executeTakeFirst();
  return row?.cool_down_until ?? block.at;
}

/** Records a failure that is not a block (the address may ask again at its rate). */
export async function recordEgressFailure(
  db: Executor,
  label: string,
  failure: { at: Date; kind: string },
): Promise<void> {
  await db
    .updateTable('egress_addresses')
    .set({ last_failure_at: failure.at, last_failure_kind: failure.kind })
    .where('label', '=', label)
    .execute();
}

/** Every address some process declared, by label. */
export async function listEgressAddresses(db: Executor): Promise<EgressAddressRow[]> {
  return await db.selectFrom('egress_addresses').selectAll().orderBy('label').execute();
}

/** Addresses declared by a process seen since `since`: what the freshness promise counts. */
export async function listLiveEgressAddresses(
  db: Executor,
  since: Date,
): Promise<EgressAddressRow[]> {
  return await db
    .selectFrom('egress_addresses')
    .selectAll()
    .where('last_seen_at', '>=', since)
    .orderBy('label')
    .execute();
}

/** Marks addresses as still in use by a live process. */
export async function touchEgressAddresses(
  db: Executor,
  labels: readonly string[],
  at: Date,
): Promise<void> {
  if (labels.length === 0) return;
  await db
    .updateTable('egress_addresses')
    .set({ last_seen_at: at })
    .where('label', 'in', labels)
    .execute();
}
