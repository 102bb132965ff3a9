import { useEffect, useState } from 'preact/hooks';
import { call, type Api, type Problem } from '../api';
import { DailyClicksChart, type ChartKind } from '../charts/daily-clicks-chart';
import { BreakdownTable } from '../charts/breakdown-table';
import { fileNameOf, formatNumber, ProblemNote, saveFile } from '../ui';
import type { LinkStats } from './link-types';

const WINDOWS = [7, 30, 90] as const;

/** Clicks per day, countries, referrers, devices and destinations of the window, each with its numbers, and the CSV. */
export function LinkStatsSection({ api, code, domain }: { api: Api; code: string; domain: string | undefined }) {
  const [days, setDays] = useState<(typeof WINDOWS)[number]>(30);
  const [kind, setKind] = useState<ChartKind>('line');
  const [stats, setStats] = useState<LinkStats>();
  const [problem, setProblem] = useState<Problem>();
  const query = { days, ...(domain ? { domain } : {}) };

  useEffect(() => {
    let current = true;
    void call(() => api.GET('/v2/links/{code}/stats', { params: { path: { code }, query } })).then((answer) => {
      if (!current) return;
      if ('problem' in answer) setProblem(answer.problem);
      else {
        setProblem(undefined);
        // Without format=csv the answer is the JSON body (the document lists both types).
        setStats(answer.data as LinkStats);
      }
    });
    return () => {
      current = false;
    };
  }, [api, code, domain, days]);

  const exportCsv = async () => {
    const answer = await call(() =>
      api.GET('/v2/links/{code}/stats', { params: { path: { code }, query: { ...query, format: 'csv' } }, parseAs: 'blob' }),
    );
    if ('problem' in answer) return setProblem(answer.problem);
    saveFile(answer.data, fileNameOf(answer.response, `${code}-clicks-${days}d.csv`));
  };

  const devices = stats ? Object.entries(stats.devices).map(([name, clicks]) => ({ name, clicks })) : [];
  const destinations = stats ? Object.entries(stats.destinations).map(([name, clicks]) => ({ name, clicks })) : [];
  return (
    <section aria-labelledby="stats-title" class="stats">
      <h2 id="stats-title">Clicks</h2>
      <div class="filters">
        <div class="field">
          <label for="stats-days">Window</label>
          <select id="stats-days" value={days} onChange={(event) => setDays(Number(event.currentTarget.value) as (typeof WINDOWS)[number])}>
            {WINDOWS.map((window) => (
              <option key={window} value={window}>
                Last {window} days
              </option>
            ))}
          </select>
        </div>
        <fieldset class="toggle">
          <legend>Chart</legend>
          {(['line', 'bar'] as const).map((option) => (
            <label key={option} class="check">
              <input type="radio" name="chart-kind" value={option} checked={kind === option} onChange={() => setKind(option)} /> {option === 'line' ? 'Line' : 'Bars'}
            </label>
          ))}
        </fieldset>
        <button type="button" onClick={exportCsv}>
          Export CSV
        </button>
      </div>
      <ProblemNote problem={problem} />
      {stats && (
        <>
          <p class="total">
            <span class="big" data-testid="stats-total">{formatNumber(stats.total)}</span> clicks in the last {stats.days.length} days
          </p>
          <DailyClicksChart days={stats.days} kind={kind} />
          <div class="breakdowns">
            <BreakdownTable title="Countries" rows={stats.countries.map((row) => ({ name: row.country, clicks: row.clicks }))} />
            <BreakdownTable title="Referrers" rows={stats.referrers.map((row) => ({ name: row.host, clicks: row.clicks }))} />
            <BreakdownTable title="Devices" rows={devices} />
            {destinations.length > 0 && <BreakdownTable title="Destinations" rows={destinations} />}
          </div>
        </>
      )}
    </section>
  );
}
