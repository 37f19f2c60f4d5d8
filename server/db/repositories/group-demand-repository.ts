import { sql } from 'kysely';
import { PLANS } from '#shared/domain/plans.ts';
import type { Executor } from '../database.ts';

/** Who waits on one poll group: searches, the ones that alert, and how new the product is. */
export type GroupDemandRow = {
  country_code: string;
  product_id: string;
  store_id: string;
  searches: number;
  alerting_searches: number;
  launch_rank: number;
};

/** Plan codes whose searches may send email, or text (from the one plan table). */
const EMAIL_PLANS = PLANS.filter((plan) => plan.features.emailNotifications).map((p) => p.code);
const TEXT_PLANS = PLANS.filter((plan) => plan.features.textNotifications).map((p) => p.code);

/** Whether search `s` of user `u` alerts (see listGroupDemand). */
function isAlertingSql() {
  return sql<boolean>`(
    u.enable_notifications
    and exists (select 1 from search_preferred_models pm where pm.search_id = s.id)
    and (
      (s.send_email_updates and u.plan in (${sql.join(EMAIL_PLANS)}) and coalesce(u.email, '') <> '')
      or (s.send_text_updates and u.plan in (${sql.join(TEXT_PLANS)})
          and coalesce(u.phone_number, '') <> '' and not u.is_text_opted_out)
      or exists (select 1 from push_subscriptions p where p.user_id = u.id)
    )
  )`;
}

/** One preferred part of an alerting search, by its group: what an alerting sweep asks. */
export type AlertPartRow = {
  country_code: string;
  product_id: string;
  store_id: string;
  part_number: string;
};

/** The preferred parts of every alerting search that is not paused, once per group. */
export async function listAlertParts(db: Executor): Promise<AlertPartRow[]> {
  return await db
    .selectFrom('searches as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('search_preferred_models as pm', 'pm.search_id', 's.id')
    .innerJoin('stores as st', 'st.store_id', 's.store_id')
    .innerJoin('countries as c', 'c.locale_code', 'st.country_locale')
    .select(['c.country_code', 's.product_type as product_id', 's.store_id', 'pm.part_number'])
    .where('s.paused_at', 'is', null)
    .where(isAlertingSql())
    .distinct()
    .execute();
}

/**
 * Demand of every group that has searches, in one query. A search "alerts" when it prefers a
 * model and some channel would carry its alert (the rules of selectAlertChannels, in SQL):
 * the account switch on, and email or text wanted and allowed by the plan, or a browser
 * subscribed to push.
 */
export async function listGroupDemand(db: Executor): Promise<GroupDemandRow[]> {
  const isAlerting = isAlertingSql();
  const rows = await db
    .selectFrom('searches as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('stores as st', 'st.store_id', 's.store_id')
    .innerJoin('countries as c', 'c.locale_code', 'st.country_locale')
    .innerJoin('product_types as pt', 'pt.product_id', 's.product_type')
    .select(['c.country_code', 's.product_type as product_id', 's.store_id'])
    .select((eb) => eb.fn.countAll<number>().as('searches'))
    .select(sql<number>`count(*) filter (where ${isAlerting})`.as('alerting_searches'))
    .select(sql<number>`min(pt.sort_order)`.as('launch_rank'))
    // Paused searches (over a downgraded plan's limit) are not polled for.
    .where('s.paused_at', 'is', null)
    .groupBy(['c.country_code', 's.product_type', 's.store_id'])
    .execute();
  return rows.map((row) => ({
    ...row,
    searches: Number(row.searches),
    alerting_searches: Number(row.alerting_searches),
    launch_rank: Number(row.launch_rank),
  }));
}
