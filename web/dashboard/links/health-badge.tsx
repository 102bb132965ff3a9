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

/** What the last check of a link's destinations found: a short badge, the details in its title. */
export function HealthBadge({ health }: { health: Link['health'] }) {
  if (!health) return <span class="status status-unchecked">Not checked yet</span>;
  const detail = [
    health.statusCode !== undefined ? `HTTP ${health.statusCode}` : undefined,
    health.error,
    health.location ? `to ${health.location}` : undefined,
    `checked ${formatDateTime(health.checkedAt)}`,
    `since ${formatDateTime(health.since)}`,
  ].filter(Boolean);
  return (
    <span class={`status health-${health.status}`} title={detail.join(', ')}>
      {LABELS[health.status]}
      {health.statusCode !== undefined ? ` (${health.statusCode})` : ''}
    </span>
  );
}

/** The link page's longer account: the badge, then what it means in words. */
export function HealthDetails({ health }: { health: Link['health'] }) {
  if (!health) return <HealthBadge health={health} />;
  return (
    <>
      <HealthBadge health={health} />{' '}
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
