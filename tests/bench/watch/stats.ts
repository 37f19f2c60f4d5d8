// Percentiles and the benchmark's tables: pure, so the test beside them can pin them down.

/** Nearest-rank percentile of ascending values: the smallest value with p % at or below it. */
export function findPercentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** A value that stands for `weight` samples (a group's staleness counts once per search). */
export type Weighted = { value: number; weight: number };

/** Nearest-rank percentiles of weighted samples; NaN each when the total weight is zero. */
export function findWeightedPercentiles(
  samples: readonly Weighted[],
  ps: readonly number[],
): number[] {
  const sorted = samples.filter((sample) => sample.weight > 0).sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, sample) => sum + sample.weight, 0);
  return ps.map((p) => {
    if (total === 0) return Number.NaN;
    const wanted = Math.max(Number.MIN_VALUE, (p / 100) * total);
    let seen = 0;
    for (const sample of sorted) {
      seen += sample.weight;
      if (seen >= wanted) return sample.value;
    }
    return sorted[sorted.length - 1].value;
  });
}

/** p50, p95 and p99 of a latency sample; p99 only from 100 samples up (else undefined). */
export type LatencySummary = {
  count: number;
  p50: number;
  p95: number;
  p99: number | undefined;
  max: number;
};

/** Summarises latencies; the caller says "p99 needs >= 100 samples" when p99 is undefined. */
export function summariseLatencies(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: findPercentile(sorted, 50),
    p95: findPercentile(sorted, 95),
    p99: sorted.length >= 100 ? findPercentile(sorted, 99) : undefined,
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1],
  };
}

/** "1.2 s", "14 min", "2.3 h": milliseconds in the unit that reads best. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return 'n/a';
  if (!Number.isFinite(ms)) return 'never';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 120 * 60_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** A Markdown table with columns padded to line up in a terminal too. */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${widths.map((width, column) => (cells[column] ?? '').padEnd(width)).join(' | ')} |`;
  return [
    line(headers),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}
