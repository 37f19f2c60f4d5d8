import { useId } from 'react';
import type { CountryFreshness } from '#shared/api/watch.ts';
import { getCountryDisplayName } from '#shared/catalog/locale.ts';
import { minutesSince } from './status-format.ts';

// The freshness chart: one row per country, a bar from the age of its most recent check to the
// age of its oldest, in minutes. Drawn as SVG by React (a few dozen shapes need no charting
// library); the country table beside it carries the same figures as text.

/** One country's row. */
export type FreshnessRow = { countryCode: string; freshness: CountryFreshness };

const WIDTH = 640;
const LABEL_WIDTH = 150;
const RIGHT_PAD = 24;
const ROW_HEIGHT = 28;
const TOP = 8;
const AXIS_HEIGHT = 32;

/** A round axis end at or above `minutes`: 10, 15, 30, 60, 120 ... minutes. */
function chooseAxisEnd(minutes: number): number {
  for (const end of [10, 15, 30, 60, 120, 240, 480, 720, 1440]) if (minutes <= end) return end;
  return Math.ceil(minutes / 1440) * 1440;
}

function formatTick(minutes: number): string {
  return minutes >= 120 && minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}

/** The chart; `now` is the page's clock so bars and table agree. */
export function FreshnessChart({ rows, now }: { rows: readonly FreshnessRow[]; now: Date }) {
  const titleId = useId();
  const descId = useId();
  const ages = rows.map((row) => ({
    ...row,
    newest: minutesSince(row.freshness.newest_check_at, now),
    oldest: minutesSince(row.freshness.oldest_check_at, now),
  }));
  const axisEnd = chooseAxisEnd(Math.max(1, ...ages.map((row) => row.oldest ?? 0)));
  const plotWidth = WIDTH - LABEL_WIDTH - RIGHT_PAD;
  const toX = (minutes: number): number =>
    LABEL_WIDTH + (Math.min(minutes, axisEnd) / axisEnd) * plotWidth;
  const height = TOP + ages.length * ROW_HEIGHT + AXIS_HEIGHT;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(share * axisEnd));
  const axisY = TOP + ages.length * ROW_HEIGHT;

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      className="status-freshness-chart"
      data-testid="freshness-chart"
    >
      <title id={titleId}>How long ago each country’s stores were checked</title>
      <desc id={descId}>
        {ages
          .map((row) =>
            row.newest === null || row.oldest === null
              ? `${getCountryDisplayName(row.countryCode)}: not checked yet`
              : `${getCountryDisplayName(row.countryCode)}: newest check ${Math.round(row.newest)} min ago, oldest ${Math.round(row.oldest)} min ago`,
          )
          .join('; ')}
      </desc>
      {ticks.map((tick) => (
        <g key={tick}>
          <line
            x1={toX(tick)}
            x2={toX(tick)}
            y1={TOP}
            y2={axisY}
            stroke="currentColor"
            strokeOpacity={0.15}
          />
          <text x={toX(tick)} y={axisY + 18} textAnchor="middle" fontSize={12} fill="currentColor">
            {formatTick(tick)}
          </text>
        </g>
      ))}
      {ages.map((row, index) => {
        const y = TOP + index * ROW_HEIGHT;
        const isLate = row.freshness.overdue_groups > 0;
        return (
          <g key={row.countryCode}>
            <text x={LABEL_WIDTH - 8} y={y + 18} textAnchor="end" fontSize={13} fill="currentColor">
              {getCountryDisplayName(row.countryCode)}
            </text>
            {row.newest === null || row.oldest === null ? (
              <text x={LABEL_WIDTH + 4} y={y + 18} fontSize={12} fill="currentColor" opacity={0.7}>
                not checked yet
              </text>
            ) : (
              <rect
                x={toX(row.newest)}
                y={y + 6}
                width={Math.max(3, toX(row.oldest) - toX(row.newest))}
                height={ROW_HEIGHT - 12}
                rx={3}
                fill={isLate ? 'var(--bs-danger)' : 'var(--bs-success)'}
              />
            )}
          </g>
        );
      })}
    </svg>
  );
}
