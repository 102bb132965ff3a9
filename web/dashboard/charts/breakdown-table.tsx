import { formatNumber } from '../ui';

/**
 * A dimension's clicks as a table whose rows carry a bar: the numbers are the chart, so a screen reader and a
 * sighted reader get the same figures.
 */
export function BreakdownTable({ title, rows }: { title: string; rows: Array<{ name: string; clicks: number }> }) {
  const most = Math.max(1, ...rows.map((row) => row.clicks));
  const id = `breakdown-${title.toLowerCase()}`;
  return (
    <section class="breakdown" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {rows.length === 0 ? (
        <p class="empty">No clicks in this window.</p>
      ) : (
        <table data-testid={id}>
          <thead>
            <tr>
              <th scope="col">{title.replace(/s$/, '').replace(/ie$/, 'y')}</th>
              <th scope="col" class="number">
                Clicks
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.name}>
                <th scope="row">{row.name || '(none)'}</th>
                <td class="number">
                  <span class="bar" aria-hidden="true">
                    <span class="fill" style={{ width: `${(row.clicks / most) * 100}%` }} />
                  </span>
                  {formatNumber(row.clicks)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
