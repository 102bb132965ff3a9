import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../clients/typescript/src/schema';
import { call, type Api, type Problem } from './api';
import { BreakdownTable } from './charts/breakdown-table';
import { DailyClicksChart } from './charts/daily-clicks-chart';
import { LiveHour, useLiveMinutes } from './charts/live-hour';
import { TOP_TABLES, topRows } from './links/link-stats';
import { linkHref } from './router';
import { formatNumber, ProblemNote } from './ui';
import { WindowSelect, type StatsWindow } from './charts/window-select';

type WorkspaceStats = paths['/v2/stats']['get']['responses'][200]['content']['application/json'];
type TopLink = WorkspaceStats['topLinks'][number];


const linkPageOf = (link: TopLink) => linkHref(link.shortCode) + (link.domain ? `?domain=${encodeURIComponent(link.domain)}` : '');

/**
 * The workspace at a glance (issue 30), the first page after sign-in: `GET /v2/stats` over a window (totals, unique
 * visitors, bots, clicks per day, the top links, every dimension) and the live hour (`GET /v2/stats/live`). Every
 * value is a text node: a city named `<script>` shows as those characters.
 */
export function OverviewPage({ api }: { api: Api }) {
  const [days, setDays] = useState<StatsWindow>(30);
  const [stats, setStats] = useState<WorkspaceStats>();
  const [problem, setProblem] = useState<Problem>();
  const live = useLiveMinutes(async () => {
    const answer = await call(() => api.GET('/v2/stats/live'));
    return 'problem' in answer ? undefined : answer.data;
  }, 'workspace');

  useEffect(() => {
    let current = true;
    void call(() => api.GET('/v2/stats', { params: { query: { days } } })).then((answer) => {
      if (!current) return;
      if ('problem' in answer) return setProblem(answer.problem);
      setProblem(undefined);
      setStats(answer.data);
    });
    return () => {
      current = false;
    };
  }, [api, days]);

  const devices = stats ? Object.entries(stats.devices).map(([name, clicks]) => ({ name, clicks })) : [];
  return (
    <section aria-labelledby="overview-title" class="stats">
      <h1 id="overview-title">Overview</h1>
      <div class="filters">
        <WindowSelect id="overview-days" days={days} onChange={setDays} />
      </div>
      <ProblemNote problem={problem} />
      {stats && (
        <>
          <p class="total">
            <span class="big" data-testid="overview-total">
              {formatNumber(stats.total)}
            </span>{' '}
            clicks on all your links in the last {stats.days.length} days
          </p>
          <p class="summary">
            <span data-testid="overview-unique">{formatNumber(stats.unique)}</span> unique visitors (a visitor is counted once a day) ·{' '}
            <span data-testid="overview-bots">{formatNumber(stats.bots)}</span> bots counted apart
          </p>
          <DailyClicksChart days={stats.days} kind="line" />
        </>
      )}
      <LiveHour live={live} />
      {stats && (
        <div class="breakdowns">
          <TopLinks links={stats.topLinks} />
          <BreakdownTable title="Countries" rows={stats.countries.map((row) => ({ name: row.country, clicks: row.clicks }))} />
          <BreakdownTable title="Referrers" rows={stats.referrers.map((row) => ({ name: row.host, clicks: row.clicks }))} />
          <BreakdownTable title="Devices" rows={devices} />
          {TOP_TABLES.map(([title, field]) => (
            <BreakdownTable key={field} title={title} rows={topRows(stats[field])} />
          ))}
        </div>
      )}
    </section>
  );
}

/** The most clicked links of the window, each linking to its page. */
function TopLinks({ links }: { links: readonly TopLink[] }) {
  return (
    <section class="breakdown" aria-labelledby="top-links-title">
      <h3 id="top-links-title">Top links</h3>
      {links.length === 0 ? (
        <p class="empty">No clicks in this window.</p>
      ) : (
        <table data-testid="top-links">
          <thead>
            <tr>
              <th scope="col">Link</th>
              <th scope="col" class="number">
                Clicks
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={`${link.domain ?? ''}/${link.shortCode}`}>
                <th scope="row">
                  <a href={linkPageOf(link)}>{link.domain ? `${link.domain}/${link.shortCode}` : link.shortCode}</a>
                </th>
                <td class="number">{formatNumber(link.clicks)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
