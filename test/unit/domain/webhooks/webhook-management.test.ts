import type { ApiKeyCaller } from '../../../../functions/shared/domain/accounts/caller';
import { InvalidRequest, PlanRequired, WebhookNotFound } from '../../../../functions/shared/domain/errors';
import { SAFE_DEFAULT_FLAGS } from '../../../../functions/shared/domain/limits/flags';
import type { Plan } from '../../../../functions/shared/domain/limits/plans';
import { OwnMessages } from '../../../../functions/shared/domain/messages';
import {
  acceptedWebhookUrl,
  addWebhook,
  editWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  rotateSecret,
  testWebhook,
  viewWebhook,
  type WebhookContext,
} from '../../../../functions/shared/domain/webhooks/webhook-management';
import { ListSafetyChecker } from '../../../support/in-memory-ports';
import { MarkingSealer, MemoryDeliveryQueue, MemoryWebhookStore } from '../../../support/in-memory-webhooks';
import { keyCaller } from '../../../support/callers';

const nowMs = Date.parse('2026-11-24T12:00:00.000Z');
const callerOn = (plan: Plan, account = 'a'): ApiKeyCaller => keyCaller({ keyId: `key_${account}`, accountId: account, owner: `acct:${account}`, plan });
const context = (plan: Plan = 'PRO', fields: Partial<WebhookContext> = {}): WebhookContext => ({
  caller: callerOn(plan),
  author: { actor: { kind: 'key', keyId: 'key_a' }, requestId: 'req-1' },
  flags: SAFE_DEFAULT_FLAGS,
  nowMs,
  localReceivers: new Set(),
  timeScale: 1,
  ...fields,
});
const deps = () => ({ webhooks: new MemoryWebhookStore(), queue: new MemoryDeliveryQueue(), safety: new ListSafetyChecker(['https://malware.example.net/in']), secrets: new MarkingSealer() });
const body = (fields: object = {}) => ({ url: 'https://hooks.example.org/in', events: ['link.created'], ...fields });

describe('a webhook\'s URL', () => {
  it.each([
    ['https://hooks.example.org/in?x=1', 'https://hooks.example.org/in?x=1'],
    ['  https://HOOKS.example.org:8443/in  ', 'https://hooks.example.org:8443/in'],
    ['https://bücher.de/hook', 'https://xn--bcher-kva.de/hook'],
  ])('accepts %j as %j', (candidate, expected) => {
    expect(acceptedWebhookUrl(candidate, new Set())).toBe(expected);
  });

  it.each([
    'http://hooks.example.org/in',
    'https://user:secret@hooks.example.org/in',
    'https://127.0.0.1/in',
    'https://[::1]/in',
    'https://10.0.0.1/in',
    'https://169.254.169.254/latest',
    'https://localhost/in',
    'https://metadata.google.internal/',
    'javascript:alert(1)',
    '',
  ])('refuses %j', (candidate) => {
    expect(acceptedWebhookUrl(candidate, new Set())).toBeUndefined();
  });

  it('lets a local run reach only the host:port pairs it lists, over http too', () => {
    const listed = new Set(['127.0.0.1:9000']);
    expect(acceptedWebhookUrl('http://127.0.0.1:9000/hook', listed)).toBe('http://127.0.0.1:9000/hook');
    expect(acceptedWebhookUrl('http://127.0.0.1:9001/hook', listed)).toBeUndefined();
    expect(acceptedWebhookUrl('http://user:pw@127.0.0.1:9000/hook', listed)).toBeUndefined();
  });
});

describe('managing webhooks', () => {
  it('creates one with a secret shown once; lists and views show none', async () => {
    const ports = deps();
    const created = await addWebhook(body({ events: ['link.clicked', 'link.created'], description: 'Ünïcode ✓' }), context(), ports);
    expect(created).toMatchObject({ url: 'https://hooks.example.org/in', events: ['link.created', 'link.clicked'], description: 'Ünïcode ✓', enabled: true, secret: expect.stringMatching(/^whsec_/) });
    const { secret: _secret, ...view } = created;
    expect(await listWebhooks(context(), ports)).toEqual({ webhooks: [view] });
    expect(await viewWebhook(created.id, context(), ports)).toEqual(view);
  });

  it('refuses bad bodies in the spec\'s words, unsafe URLs, and the eleventh', async () => {
    const ports = deps();
    await expect(addWebhook(body({ url: 'https://malware.example.net/in' }), context(), ports)).rejects.toThrow(OwnMessages.webhookUrlUnsafe);
    // A look-alike host (Cyrillic а in paypal) is refused as a destination's is.
    await expect(addWebhook(body({ url: 'https://p\u0430ypal.com/in' }), context(), ports)).rejects.toThrow(OwnMessages.webhookUrlUnsafe);
    await expect(addWebhook(body({ events: 'link.created' }), context(), ports)).rejects.toThrow(InvalidRequest);
    await expect(addWebhook(body({ description: 5 }), context(), ports)).rejects.toThrow(OwnMessages.webhookDescription(200));
    await expect(addWebhook({ events: ['link.created'] }, context(), ports)).rejects.toThrow(OwnMessages.webhookUrl);
    for (let index = 0; index < 10; index++) await addWebhook(body(), context(), ports);
    await expect(addWebhook(body(), context(), ports)).rejects.toThrow(OwnMessages.webhookLimit(10));
  });

  it('needs INDIE or higher and the flag', async () => {
    await expect(addWebhook(body(), context('FREE'), deps())).rejects.toThrow(PlanRequired);
    await expect(listWebhooks(context('FREE'), deps())).rejects.toThrow('Webhooks require the INDIE plan or higher.');
    await expect(addWebhook(body(), context('INDIE'), deps())).resolves.toMatchObject({ enabled: true });
    await expect(listWebhooks(context('PRO', { flags: { ...SAFE_DEFAULT_FLAGS, webhooks: false } }), deps())).rejects.toThrow(OwnMessages.webhooksDisabled);
  });

  it('link.broken and link.recovered are PRO\'s and up, on creation and on edit (issue 31)', async () => {
    const ports = deps();
    await expect(addWebhook(body({ events: ['link.broken'] }), context('INDIE'), ports)).rejects.toThrow(
      'Link health alerts (the broken-links filter and its events) require the PRO plan or higher.',
    );
    const { id } = await addWebhook(body(), context('INDIE'), ports);
    await expect(editWebhook(id, { events: ['link.created', 'link.recovered'] }, context('INDIE'), ports)).rejects.toThrow(PlanRequired);
    await expect(addWebhook(body({ events: ['link.broken', 'link.recovered'] }), context('PRO'), ports)).resolves.toMatchObject({ events: ['link.broken', 'link.recovered'] });
  });

  it('answers another account\'s webhook as no webhook at all', async () => {
    const ports = deps();
    const { id } = await addWebhook(body(), context(), ports);
    const stranger = context('PRO', { caller: callerOn('PRO', 'b') });
    for (const call of [
      () => viewWebhook(id, stranger, ports),
      () => editWebhook(id, { enabled: false }, stranger, ports),
      () => removeWebhook(id, stranger, ports),
      () => rotateSecret(id, {}, stranger, ports),
      () => testWebhook(id, stranger, ports),
      () => listDeliveries(id, null, stranger, ports),
      () => viewWebhook('../../etc', context(), ports),
    ]) {
      await expect(call()).rejects.toThrow(WebhookNotFound);
    }
    expect(ports.queue.sent).toEqual([]);
  });

  it('PATCH enabled:true restarts a webhook the service turned off, forgetting why and its failure streak', async () => {
    const ports = deps();
    const { id } = await addWebhook(body(), context(), ports);
    await ports.webhooks.update('acct:a', id, { enabled: false, disabledReason: 'The endpoint answered 410 Gone' });
    await ports.webhooks.markFailing('acct:a', id, nowMs - 1000);
    expect(await viewWebhook(id, context(), ports)).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });
    const restarted = await editWebhook(id, { enabled: true }, context(), ports);
    expect(restarted.enabled).toBe(true);
    expect(restarted).not.toHaveProperty('disabledReason');
    expect(ports.webhooks.records.get(id)?.failingSince).toBeUndefined();
    await expect(editWebhook(id, {}, context(), ports)).rejects.toThrow(OwnMessages.webhookPatchEmpty);
  });

  it('keeps secrets only sealed for their webhook, never in the clear (issue 27)', async () => {
    const ports = deps();
    const created = await addWebhook(body(), context(), ports);
    const rotated = await rotateSecret(created.id, {}, context(), ports);
    const stored = JSON.stringify(ports.webhooks.records.get(created.id));
    expect(stored).not.toContain('whsec_');
    const record = ports.webhooks.records.get(created.id);
    expect(await ports.secrets.open(record?.secret ?? '', created.id)).toBe(rotated.secret);
    expect(await ports.secrets.open(record?.previousSecret?.secret ?? '', created.id)).toBe(created.secret);
  });

  it('rotation keeps the old secret signing for 24 hours (scaled in a local run)', async () => {
    const ports = deps();
    const created = await addWebhook(body(), context(), ports);
    const rotated = await rotateSecret(created.id, {}, context(), ports);
    expect(rotated.secret).not.toBe(created.secret);
    const sealed = (secret: string) => ports.secrets.seal(secret, created.id);
    expect(ports.webhooks.records.get(created.id)?.previousSecret).toEqual({ secret: await sealed(created.secret), until: nowMs + 86_400_000 });
    await rotateSecret(created.id, { expirePrevious: false }, context('PRO', { timeScale: 0.0001 }), ports);
    expect(ports.webhooks.records.get(created.id)?.previousSecret).toEqual({ secret: await sealed(rotated.secret), until: nowMs + 8_640 });
  });

  it('rotation with expirePrevious ends the previous secret at once, a running overlap included (issue 27)', async () => {
    const ports = deps();
    const created = await addWebhook(body(), context(), ports);
    await rotateSecret(created.id, {}, context(), ports);
    const leaked = await rotateSecret(created.id, { expirePrevious: true }, context(), ports);
    const record = ports.webhooks.records.get(created.id);
    expect(record?.previousSecret).toBeUndefined();
    expect(record?.secret).toBe(await ports.secrets.seal(leaked.secret, created.id));
    await expect(rotateSecret(created.id, { expirePrevious: 'yes' }, context(), ports)).rejects.toThrow(OwnMessages.webhookExpirePrevious);
  });

  it('a test queues one webhook.test for that webhook, due now', async () => {
    const ports = deps();
    const { id } = await addWebhook(body(), context(), ports);
    const { eventId } = await testWebhook(id, context(), ports);
    expect(ports.queue.sent).toEqual([
      { webhookId: id, owner: 'acct:a', event: { id: eventId, type: 'webhook.test', timestamp: '2026-11-24T12:00:00.000Z', data: { webhookId: id, url: 'https://hooks.example.org/in' } }, attempt: 1, dueAt: nowMs },
    ]);
  });

  it('deliveries page with a limit from 1 to 100', async () => {
    const ports = deps();
    const { id } = await addWebhook(body(), context(), ports);
    await expect(listDeliveries(id, { limit: '0' }, context(), ports)).rejects.toThrow(OwnMessages.limitParameter);
    await expect(listDeliveries(id, { limit: '101' }, context(), ports)).rejects.toThrow(OwnMessages.limitParameter);
    await expect(listDeliveries(id, { limit: '5' }, context(), ports)).resolves.toEqual({ deliveries: [] });
  });
});
