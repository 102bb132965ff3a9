import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatDate, formatNumber } from '../ui';

export type ChartKind = 'line' | 'bar';

const HEIGHT = 240;
const ACCENT = '#1f5fbf';
const DAY_SECONDS = 86_400;
const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

function optionsOf(kind: ChartKind, width: number): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    // Days are UTC days (as the API counts them), whatever the browser's time zone.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    cursor: { drag: { x: false, y: false } },
    // Half a day either side, so the first and last bars are whole.
    scales: { x: { time: true, range: (_chart, min, max) => [min - DAY_SECONDS / 2, max + DAY_SECONDS / 2] }, y: { range: (_chart, _min, max) => [0, Math.max(1, max)] } },
    axes: [
      // Ticks on whole days only (a day is the data's unit), labelled as dates in UTC, as the API counts them.
      { incrs: [DAY_SECONDS, 7 * DAY_SECONDS, 28 * DAY_SECONDS], values: (_chart, ticks) => ticks.map((tick) => shortDate.format(new Date(tick * 1000))) },
      { values: (_chart, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? formatNumber(tick) : '')) }],
    series: [
      {},
      kind === 'bar'
        ? { label: 'Clicks', stroke: ACCENT, fill: `${ACCENT}cc`, paths: uPlot.paths.bars?.({ size: [0.7, 40] }), points: { show: false } }
        : { label: 'Clicks', stroke: ACCENT, width: 2, fill: `${ACCENT}22`, points: { show: true, size: 5 } },
    ],
  };
}

/**
 * Clicks per day (uPlot on a canvas), with the same numbers in a table beside it: the canvas is a picture for the
 * eye and is hidden from assistive technology, the table is what a screen reader reads.
 */
export function DailyClicksChart({ days, kind }: { days: Array<{ date: string; clicks: number }>; kind: ChartKind }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const data: uPlot.AlignedData = [days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000), days.map((day) => day.clicks)];
    const chart = new uPlot(optionsOf(kind, Math.max(280, element.clientWidth)), data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, element.clientWidth), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, kind]);
  return (
    <figure class="daily">
      <div ref={holder} class="chart" aria-hidden="true" data-testid="daily-chart" data-kind={kind} />
      <figcaption>
        <details>
          <summary>Clicks per day as numbers</summary>
          <table data-testid="daily-table">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" class="number">
                  Clicks
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date} data-date={day.date}>
                  <th scope="row">{formatDate(day.date)}</th>
                  <td class="number">{formatNumber(day.clicks)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
