import { useEffect, useState } from 'preact/hooks';
import { call, type Api, type Problem } from '../api';
import { DailyClicksChart, type ChartKind } from '../charts/daily-clicks-chart';
import { BreakdownTable } from '../charts/breakdown-table';
import { LiveHour, useLiveMinutes } from '../charts/live-hour';
import { fileNameOf, formatNumber, ProblemNote, saveFile } from '../ui';
import type { LinkStats } from './link-types';
import { WindowSelect, type StatsWindow } from '../charts/window-select';


type TopValues = LinkStats['browsers'];
/** Issue 30's dimensions as the page titles them (one word each: the title names the table). */
export const TOP_TABLES: Array<[title: string, field: 'browsers' | 'operatingSystems' | 'regions' | 'cities' | 'utmSources' | 'utmMediums' | 'utmCampaigns']> = [
  ['Browsers', 'browsers'],
  ['Systems', 'operatingSystems'],
  ['Regions', 'regions'],
  ['Cities', 'cities'],
  ['Sources', 'utmSources'],
  ['Mediums', 'utmMediums'],
  ['Campaigns', 'utmCampaigns'],
];

/** A top 50 and its rest as rows; values are text (a city named `<script>` is shown as those characters). */
export const topRows = (values: TopValues) => [...values.top.map((row) => ({ name: row.value, clicks: row.clicks })), ...(values.other > 0 ? [{ name: '(all others)', clicks: values.other }] : [])];

/** Clicks per day, countries, referrers, devices and destinations of the window, each with its numbers, and the CSV. */
export function LinkStatsSection({ api, code, domain }: { api: Api; code: string; domain: string | undefined }) {
  const [days, setDays] = useState<StatsWindow>(30);
  const [kind, setKind] = useState<ChartKind>('line');
  const [stats, setStats] = useState<LinkStats>();
  const [problem, setProblem] = useState<Problem>();
  const [withBots, setWithBots] = useState(false);
  const query = { days, ...(domain ? { domain } : {}), ...(withBots ? { bots: 'include' as const } : {}) };
  const live = useLiveMinutes(async () => {
    const answer = await call(() => api.GET('/v2/links/{code}/stats/live', { params: { path: { code }, query: domain ? { domain } : {} } }));
    return 'problem' in answer ? undefined : answer.data;
  }, `${domain ?? ''}/${code}`);

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
  }, [api, code, domain, days, withBots]);

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
        <WindowSelect id="stats-days" days={days} onChange={setDays} />
        <fieldset class="toggle">
          <legend>Chart</legend>
          {(['line', 'bar'] as const).map((option) => (
            <label key={option} class="check">
              <input type="radio" name="chart-kind" value={option} checked={kind === option} onChange={() => setKind(option)} /> {option === 'line' ? 'Line' : 'Bars'}
            </label>
          ))}
        </fieldset>
        <label class="check">
          <input type="checkbox" checked={withBots} onChange={(event) => setWithBots(event.currentTarget.checked)} /> Include bots
        </label>
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
          <p class="summary">
            <span data-testid="stats-unique">{formatNumber(stats.unique)}</span> unique visitors (a visitor is counted once a day) ·{' '}
            <span data-testid="stats-bots">{formatNumber(stats.bots)}</span> bots counted apart
          </p>
          {stats.importedClicks !== undefined && (
            <p class="summary">
              <span data-testid="stats-imported">{formatNumber(stats.importedClicks)}</span> clicks before import, at the shortener it came from: not in these figures
            </p>
          )}
          <DailyClicksChart days={stats.days} kind={kind} />
          <LiveHour live={live} />
          <div class="breakdowns">
            <BreakdownTable title="Countries" rows={stats.countries.map((row) => ({ name: row.country, clicks: row.clicks }))} />
            <BreakdownTable title="Referrers" rows={stats.referrers.map((row) => ({ name: row.host, clicks: row.clicks }))} />
            <BreakdownTable title="Devices" rows={devices} />
            {destinations.length > 0 && <BreakdownTable title="Destinations" rows={destinations} />}
            {TOP_TABLES.map(([title, field]) => (
              <BreakdownTable key={field} title={title} rows={topRows(stats[field])} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
