import { useEffect, useState } from 'preact/hooks';
import { call, type Api, type Problem } from './api';
import type { paths } from '../../clients/typescript/src/schema';
import { CopyButton, formatDateTime, ProblemNote } from './ui';
import { useAllowed } from './workspace';

type Webhook = paths['/v2/webhooks']['get']['responses'][200]['content']['application/json']['webhooks'][number];
type Delivery = paths['/v2/webhooks/{id}/deliveries']['get']['responses'][200]['content']['application/json']['deliveries'][number];
type EventName = Webhook['events'][number];

const EVENTS: EventName[] = ['link.created', 'link.updated', 'link.deleted', 'link.disabled', 'link.enabled', 'link.expired', 'link.used-up', 'link.clicked', 'quota.warning', 'quota.exhausted'];

/** Webhooks: add one (its secret shown once), test it, see its recent deliveries, rotate its secret, enable or disable it, delete it. */
export function WebhooksPage({ api }: { api: Api }) {
  const canAdd = useAllowed('POST /v2/webhooks');
  const [webhooks, setWebhooks] = useState<Webhook[]>();
  const [problem, setProblem] = useState<Problem>();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventName[]>(['link.created']);
  const [addProblem, setAddProblem] = useState<Problem>();
  const [secret, setSecret] = useState<{ id: string; secret: string }>();

  const load = async () => {
    const answer = await call(() => api.GET('/v2/webhooks'));
    if ('problem' in answer) setProblem(answer.problem);
    else setWebhooks(answer.data.webhooks);
  };
  useEffect(() => void load(), [api]);

  const add = async (event: Event) => {
    event.preventDefault();
    const answer = await call(() => api.POST('/v2/webhooks', { body: { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) } }));
    if ('problem' in answer) return setAddProblem(answer.problem);
    setAddProblem(undefined);
    setSecret({ id: answer.data.id, secret: answer.data.secret });
    setUrl('');
    setDescription('');
    await load();
  };

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <ProblemNote problem={problem} />
      {canAdd && (
      <form onSubmit={add} class="panel" noValidate>
        <h2>Add a webhook</h2>
        <div class="field">
          <label for="webhook-url">Endpoint URL (https)</label>
          <input id="webhook-url" type="url" autoComplete="off" value={url} onInput={(event) => setUrl(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="webhook-description">Description (optional)</label>
          <input id="webhook-description" autoComplete="off" value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
        </div>
        <fieldset>
          <legend>Events</legend>
          <div class="grid">
            {EVENTS.map((name) => (
              <label key={name} class="check">
                <input
                  type="checkbox"
                  checked={events.includes(name)}
                  onChange={(event) => setEvents(event.currentTarget.checked ? [...events, name] : events.filter((chosen) => chosen !== name))}
                />{' '}
                {name}
              </label>
            ))}
          </div>
        </fieldset>
        <ProblemNote problem={addProblem} />
        <button type="submit">Add webhook</button>
      </form>
      )}
      {secret && <SecretOnce secret={secret.secret} onSaved={() => setSecret(undefined)} />}
      {webhooks?.length === 0 && <p class="empty">No webhooks yet.</p>}
      {webhooks?.map((webhook) => <WebhookPanel key={webhook.id} api={api} webhook={webhook} onChanged={load} />)}
    </section>
  );
}

/** A signing secret, shown once (the API never shows it again), with a copy button. */
function SecretOnce({ secret, onSaved, note }: { secret: string; onSaved: () => void; note?: string }) {
  return (
    <div class="panel secret" role="status">
      <h2>Signing secret</h2>
      <p>Copy it now: it is shown only this once. Your endpoint checks each delivery's signature with it.{note ? ` ${note}` : ''}</p>
      <p>
        <code data-testid="webhook-secret">{secret}</code> <CopyButton text={secret} label="Copy the signing secret" />
      </p>
      <button type="button" class="quiet" onClick={onSaved}>
        I have saved it
      </button>
    </div>
  );
}

function WebhookPanel({ api, webhook, onChanged }: { api: Api; webhook: Webhook; onChanged: () => Promise<void> }) {
  const canChange = useAllowed('PATCH /v2/webhooks/{id}');
  const [deliveries, setDeliveries] = useState<Delivery[]>();
  const [problem, setProblem] = useState<Problem>();
  const [said, setSaid] = useState('');
  const [rotated, setRotated] = useState<string>();
  const path = { params: { path: { id: webhook.id } } };

  const [olderCursor, setOlderCursor] = useState<string>();
  /** The newest ten, or (with a cursor) the ten before those shown, appended. */
  const loadDeliveries = async (cursor?: string) => {
    const answer = await call(() => api.GET('/v2/webhooks/{id}/deliveries', { params: { path: { id: webhook.id }, query: { limit: 10, ...(cursor ? { cursor } : {}) } } }));
    if ('problem' in answer) return setProblem(answer.problem);
    setDeliveries(cursor ? [...(deliveries ?? []), ...answer.data.deliveries] : answer.data.deliveries);
    setOlderCursor(answer.data.nextCursor);
  };
  const act = async (run: () => Promise<{ data?: unknown; error?: unknown; response: Response }>, done: string) => {
    const answer = await call(run);
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    setSaid(done);
    await onChanged();
  };

  return (
    <article class="panel" aria-labelledby={`webhook-${webhook.id}`}>
      <h2 id={`webhook-${webhook.id}`}>
        {webhook.description || webhook.url} <span class={`status status-${webhook.enabled ? 'active' : 'disabled'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>
      </h2>
      <p class="destination">{webhook.url}</p>
      {webhook.disabledReason && <p>Disabled: {webhook.disabledReason}</p>}
      <p class="help">Events: {webhook.events.join(', ')}</p>
      <ProblemNote problem={problem} />
      <p role="status" class="said">
        {said}
      </p>
      <div class="actions">
        {canChange && (
          <>
        <button type="button" onClick={() => act(() => api.POST('/v2/webhooks/{id}/test', path), 'Test event sent.')}>
          Send a test event
        </button>
        <button type="button" onClick={() => act(() => api.PATCH('/v2/webhooks/{id}', { ...path, body: { enabled: !webhook.enabled } }), webhook.enabled ? 'Disabled.' : 'Enabled.')}>
          {webhook.enabled ? 'Disable' : 'Enable'}
        </button>
          </>
        )}
        <button type="button" onClick={() => loadDeliveries()}>
          Recent deliveries
        </button>
        {canChange && (
          <>
        <button
          type="button"
          onClick={async () => {
            const answer = await call(() => api.POST('/v2/webhooks/{id}/rotate-secret', path));
            if ('problem' in answer) return setProblem(answer.problem);
            setProblem(undefined);
            setRotated(answer.data.secret);
          }}
        >
          Rotate the secret
        </button>
        <button type="button" class="danger" onClick={() => confirm('Delete this webhook? Its queued deliveries stop.') && act(() => api.DELETE('/v2/webhooks/{id}', path), 'Deleted.')}>
          Delete
        </button>
          </>
        )}
      </div>
      {rotated && <SecretOnce secret={rotated} onSaved={() => setRotated(undefined)} note="The old secret keeps signing beside it for 24 hours, while you switch." />}
      {deliveries && (
        <table>
          <caption>Recent deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col" class="number">
                Attempt
              </th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.length === 0 && (
              <tr>
                <td colSpan={4}>No deliveries yet.</td>
              </tr>
            )}
            {deliveries.map((delivery) => (
              <tr key={`${delivery.eventId}-${delivery.attempt}`}>
                <td>{formatDateTime(delivery.at)}</td>
                <td>{delivery.event}</td>
                <td class="number">{delivery.attempt}</td>
                <td>{delivery.status !== undefined ? `HTTP ${delivery.status}` : (delivery.error ?? '')} ({delivery.durationMs} ms)</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deliveries && olderCursor && (
        <button type="button" class="quiet" onClick={() => loadDeliveries(olderCursor)}>
          Older deliveries
        </button>
      )}
    </article>
  );
}
