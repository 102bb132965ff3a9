import { useEffect, useState } from 'preact/hooks';
import { formatNumber } from '../ui';
import { LIVE_REFRESH_MS } from './live-refresh';


export interface LiveMinutes {
  minutes: Array<{ minute: string; clicks: number; bots: number }>;
  total: number;
}

const timeOfMinute = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/**
 * Reads `load` now and every 10 s while the tab is visible (a hidden tab asks nothing; coming back reads at once).
 * A failed read keeps the last minutes shown.
 */
export function useLiveMinutes(load: () => Promise<LiveMinutes | undefined>, key: string): LiveMinutes | undefined {
  const [live, setLive] = useState<LiveMinutes>();
  useEffect(() => {
    let current = true;
    const refresh = () => {
      if (document.visibilityState !== 'visible') return;
      void load().then((answer) => {
        if (current && answer) setLive(answer);
      });
    };
    refresh();
    const timer = setInterval(refresh, LIVE_REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      current = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [key]);
  return live;
}

/** The last 60 minutes as bars (a picture, hidden from assistive technology) and the same numbers in a table. */
export function LiveHour({ live }: { live: LiveMinutes | undefined }) {
  if (!live) return null;
  const most = Math.max(1, ...live.minutes.map((minute) => minute.clicks));
  return (
    <section class="live" aria-labelledby="live-title">
      <h3 id="live-title">The last hour, live</h3>
      <p>
        <span class="big" data-testid="live-total">
          {formatNumber(live.total)}
        </span>{' '}
        clicks in the last 60 minutes (read again every 10 seconds)
      </p>
      <div class="live-bars" aria-hidden="true">
        {live.minutes.map((minute) => (
          <span key={minute.minute} class="live-bar" style={{ height: `${(minute.clicks / most) * 100}%` }} />
        ))}
      </div>
      <details>
        <summary>Clicks per minute as numbers</summary>
        <table data-testid="live-table">
          <thead>
            <tr>
              <th scope="col">Minute (UTC)</th>
              <th scope="col" class="number">
                Clicks
              </th>
              <th scope="col" class="number">
                Bots
              </th>
            </tr>
          </thead>
          <tbody>
            {live.minutes.map((minute) => (
              <tr key={minute.minute}>
                <th scope="row">{timeOfMinute.format(new Date(minute.minute))}</th>
                <td class="number">{formatNumber(minute.clicks)}</td>
                <td class="number">{formatNumber(minute.bots)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
