import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { computeCountTicks, type RestockChartData } from './restock-history-data.ts';

const BAR_COLOR = '#0d6efd'; // Bootstrap's primary, so the chart matches the buttons around it.
const GRID_COLOR = 'rgba(0, 0, 0, 0.08)';

/** uPlot options for a small daily-bars chart whose x values are day indexes. */
function buildOptions(
  data: RestockChartData,
  width: number,
  height: number,
  container: HTMLElement,
): uPlot.Options {
  const bars = uPlot.paths.bars?.({ size: [0.6, 48], align: 0 });
  // uPlot's own tick choice left "0" and "50" under a bar of 62: the axis ends on a labelled
  // tick at or above the busiest day, with at least three labels.
  const ticks = computeCountTicks(Math.max(0, ...data.restocks));
  const top = ticks[ticks.length - 1] ?? 1;
  let drawnLabels: string[] = [];
  return {
    width,
    height,
    // The table beside the chart is the readable version; the canvas needs no legend or cursor.
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, range: [-0.5, data.indexes.length - 0.5] },
      y: { range: () => [0, top] },
    },
    axes: [
      {
        splits: () => data.indexes,
        values: (_chart, splits) => splits.map((split) => data.tickLabels[split] ?? ''),
        grid: { show: false },
        ticks: { show: false },
      },
      {
        splits: () => ticks,
        values: (_chart, splits) => {
          drawnLabels = splits.map((split) => String(split));
          return drawnLabels;
        },
        grid: { stroke: GRID_COLOR },
        ticks: { show: false },
        size: 36,
      },
    ],
    series: [
      {},
      {
        label: 'Restocks',
        fill: BAR_COLOR,
        stroke: BAR_COLOR,
        width: 0,
        points: { show: false },
        ...(bars === undefined ? {} : { paths: bars }),
      },
    ],
    hooks: {
      // A canvas has no text to inspect: the labels uPlot drew, and where the top one and the
      // highest bar sit, are written on the container for layout tests.
      draw: [
        (chart) => {
          const highest = Math.max(0, ...data.restocks);
          container.dataset.yLabels = drawnLabels.join(',');
          container.dataset.yTopLabelPosition = String(Math.round(chart.valToPos(top, 'y')));
          container.dataset.highestBarPosition = String(Math.round(chart.valToPos(highest, 'y')));
        },
      ],
    },
  };
}

/** Daily restocks as bars (uPlot on a canvas); hidden from assistive tech, which reads the table instead. */
export function RestockChart({ data, height = 160 }: { data: RestockChartData; height?: number }) {
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) {
      return undefined;
    }
    // clientWidth is 0 before layout in some engines: start at a sensible width and resize.
    const widthOf = () => Math.max(200, container.clientWidth);
    const chart = new uPlot(
      buildOptions(data, widthOf(), height, container),
      [data.indexes, data.restocks],
      container,
    );
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => chart.setSize({ width: widthOf(), height }));
    observer?.observe(container);
    return () => {
      observer?.disconnect();
      chart.destroy();
    };
  }, [data, height]);

  return (
    <div
      ref={containerRef}
      className="restock-chart"
      aria-hidden="true"
      data-testid="restock-chart"
    />
  );
}
