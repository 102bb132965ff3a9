import { formatDateTime } from '../ui';
import type { Link } from './link-types';

type Health = NonNullable<Link['health']>;

/** The words people read for each check result (the API's status names stay in the class). */
const LABELS: Record<Health['status'], string> = {
  ok: 'OK',
  redirects: 'Redirects',
  'client-error': 'Client error',
  'server-error': 'Server error',
  unreachable: 'Unreachable',
};

/**
 * What the last check of a link's destinations found: a short badge, the details in its title. Only active links are
 * checked: another link without a check shows nothing to wait for.
 */
export function HealthBadge({ health, active }: { health: Link['health']; active: boolean }) {
  if (!health) return active ? <span class="health health-unchecked">Not checked yet</span> : <span>—</span>;
  const detail = [
    health.statusCode !== undefined ? `HTTP ${health.statusCode}` : undefined,
    health.error,
    health.location ? `to ${health.location}` : undefined,
    `checked ${formatDateTime(health.checkedAt)}`,
    `since ${formatDateTime(health.since)}`,
  ].filter(Boolean);
  return (
    <span class={`health health-${health.status}`} title={detail.join(', ')}>
      {LABELS[health.status]}
      {health.statusCode !== undefined ? ` (${health.statusCode})` : ''}
    </span>
  );
}

/** The link page's longer account: the badge, then what it means in words. */
export function HealthDetails({ health, active }: { health: Link['health']; active: boolean }) {
  if (!health) return <HealthBadge health={health} active={active} />;
  return (
    <>
      <HealthBadge health={health} active={active} />{' '}
      {health.error ? `(${health.error}) ` : ''}
      {health.location ? (
        <>
          to <span class="destination">{health.location}</span>{' '}
        </>
      ) : null}
      since {formatDateTime(health.since)}, checked {formatDateTime(health.checkedAt)}
    </>
  );
}
