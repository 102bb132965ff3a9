import { InvalidRequest, LinkDisabled, LinkGone, LinkNotFound, PlanRequired } from '../../../../functions/shared/domain/errors';
import { SAFE_DEFAULT_FLAGS } from '../../../../functions/shared/domain/limits/flags';
import type { LinkRecord } from '../../../../functions/shared/domain/links/link';
import { deleteLink, editLink } from '../../../../functions/shared/domain/links/link-management';
import { viewLink, type ManagementContext } from '../../../../functions/shared/domain/links/link-viewing';
import { Messages, OwnMessages } from '../../../../functions/shared/domain/messages';
import type { ClaimCondition, GuardedWrite, LinkChanges, ManagedLinkStore } from '../../../../functions/shared/domain/ports';
import { ListSafetyChecker, smartFields } from '../../../support/in-memory-ports';
import { keyCaller } from '../../../support/callers';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const context: ManagementContext = {
  caller: keyCaller({ keyId: 'key_1', accountId: 'acct_a', owner: 'acct:acct_a', plan: 'FREE' }),
  author: { actor: { kind: 'key', keyId: 'key_1' }, requestId: 'req-1' },
  flags: SAFE_DEFAULT_FLAGS,
  nowMs,
  shortBaseUrl: 'https://sho.rt',
};
const link: LinkRecord = { code: 'abc1234', url: 'https://example.com/', isAlias: false, createdAt: '2026-11-22T09:00:00.000Z', clicks: 0, owner: 'acct:acct_a' };

/** A store whose writes answer as told, recording what they were asked. */
function store(answer: GuardedWrite, found: LinkRecord | undefined = link) {
  const updates: LinkChanges[] = [];
  /** The claim condition of each write, in order (undefined: none). */
  const claims: Array<ClaimCondition | undefined> = [];
  const links: ManagedLinkStore = {
    find: async () => found,
    listByOwner: async () => ({ links: [], more: false }),
    update: async (_code, _owner, changes, _nowMs, claim) => {
      updates.push(changes);
      claims.push(claim);
      return answer;
    },
    markDeleted: async (_code, _owner, _nowMs, claim) => {
      claims.push(claim);
      return answer;
    },
    setDisabled: async () => true,
    keysOnDomain: async () => ({ keys: [], examined: 0 }),
    clearOfRemovedDomain: async () => false,
    sealCache: async () => undefined,
  };
  return { links, updates, claims, safety: new ListSafetyChecker(['https://bad.example.com/']), smartFields };
}

describe('viewing a link', () => {
  it('shows the owner\'s link and hides anyone else\'s as not found', async () => {
    await expect(viewLink('abc1234', context, store({ done: false }))).resolves.toMatchObject({ shortCode: 'abc1234' });
    await expect(viewLink('abc1234', context, store({ done: false }, { ...link, owner: 'acct:other' }))).rejects.toThrow(new LinkNotFound(OwnMessages.linkNotFound));
    await expect(viewLink('abc1234', context, store({ done: false }, { ...link, owner: 'anonymous' }))).rejects.toBeInstanceOf(LinkNotFound);
  });
});

describe('editing a link', () => {
  it('turns expiresIn into an expiry from now and null into a removal', async () => {
    const deps = store({ done: true, link });
    await editLink('abc1234', { expiresIn: 120, password: null }, context, deps);
    expect(deps.updates).toEqual([{ expiresAt: '2026-11-22T10:02:00.000Z', passwordHash: null }]);
  });

  it('checks the body, flags, plan and safety before the link itself, as creation does', async () => {
    const deps = store({ done: false });
    await expect(editLink('nope', {}, context, deps)).rejects.toThrow(new InvalidRequest(OwnMessages.patchEmpty));
    await expect(editLink('nope', { expiresIn: 60 }, { ...context, flags: { ...SAFE_DEFAULT_FLAGS, expiration: false } }, deps)).rejects.toThrow(Messages.expirationDisabled);
    await expect(editLink('nope', { maxClicks: 3 }, context, deps)).rejects.toBeInstanceOf(PlanRequired);
    await expect(editLink('nope', { url: 'https://bad.example.com/' }, context, deps)).rejects.toThrow(Messages.unsafeUrl);
    await expect(editLink('nope', { url: 'https://good.example.com/' }, context, deps)).rejects.toBeInstanceOf(LinkNotFound);
    expect(deps.updates).toEqual([{ url: 'https://good.example.com/' }]);
  });

  it('lets a plan remove a feature it does not sell', async () => {
    await expect(editLink('abc1234', { maxClicks: null, password: null }, context, store({ done: true, link }))).resolves.toMatchObject({ status: 'active' });
  });

  it.each([
    ['another account\'s link', { ...link, owner: 'acct:other', disabled: true }, LinkNotFound],
    ['a disabled link', { ...link, disabled: true }, LinkDisabled],
    ['a deleted link', { ...link, deleted: true }, LinkGone],
    ['a used-up link', { ...link, maxClicks: 1, clicks: 1 }, LinkGone],
  ] as const)('refuses %s', async (_why, current, error) => {
    await expect(editLink('abc1234', { url: 'https://example.org/' }, context, store({ done: false, current }))).rejects.toBeInstanceOf(error);
  });

  it('names the clicks already used when a new limit is below them', async () => {
    const pro = { ...context, caller: { ...context.caller, plan: 'PRO' as const } };
    await expect(editLink('abc1234', { maxClicks: 2 }, pro, store({ done: false, current: { ...link, maxClicks: 10, clicks: 3 } }))).rejects.toThrow(
      new InvalidRequest('maxClicks cannot be lower than the clicks already used (3)'),
    );
  });
});

describe('deleting a link', () => {
  it('maps refusals like edits do', async () => {
    await expect(deleteLink('abc1234', context, store({ done: true, link: { ...link, deleted: true } }))).resolves.toBeUndefined();
    await expect(deleteLink('abc1234', context, store({ done: false, current: { ...link, deleted: true } }))).rejects.toBeInstanceOf(LinkGone);
    await expect(deleteLink('abc1234', context, store({ done: false }))).rejects.toBeInstanceOf(LinkNotFound);
    await expect(deleteLink('../x', context, store({ done: true, link }))).rejects.toBeInstanceOf(LinkNotFound);
  });
});

describe('managing a link on a custom domain that was claimed again (issue 27)', () => {
  const onDomain = (holder: ManagementContext['holder']): ManagementContext => ({ ...context, domain: 'go.acme.com', ...(holder ? { holder } : {}) });
  const made = (fields: Partial<LinkRecord>): LinkRecord => ({ ...link, domain: 'go.acme.com', ...fields });

  it('shows only links made under the claim that holds the name now; an earlier claim\'s are not found', async () => {
    const current = onDomain({ owner: link.owner, claimId: 'claim-2' });
    await expect(viewLink('abc1234', current, store({ done: false }, made({ claimId: 'claim-2' })))).resolves.toMatchObject({ domain: 'go.acme.com' });
    await expect(viewLink('abc1234', current, store({ done: false }, made({ claimId: 'claim-1' })))).rejects.toThrow(new LinkNotFound(OwnMessages.linkNotFound));
    // The former owner, once another account holds the name: nothing, whatever claim its links carry.
    const reclaimed = onDomain({ owner: 'acct:b', claimId: 'claim-3' });
    await expect(viewLink('abc1234', reclaimed, store({ done: false }, made({ claimId: 'claim-1' })))).rejects.toBeInstanceOf(LinkNotFound);
    await expect(viewLink('abc1234', reclaimed, store({ done: false }, made({})))).rejects.toBeInstanceOf(LinkNotFound);
  });

  it('treats links and claims from before claim ids by owner: a link without one is its owner\'s while the owner holds the name', async () => {
    await expect(viewLink('abc1234', onDomain({ owner: link.owner }), store({ done: false }, made({})))).resolves.toMatchObject({ shortCode: 'abc1234' });
    await expect(viewLink('abc1234', onDomain({ owner: link.owner, claimId: 'claim-2' }), store({ done: false }, made({})))).resolves.toMatchObject({ shortCode: 'abc1234' });
    // A link made under a claim is never one of a claim without an id.
    await expect(viewLink('abc1234', onDomain({ owner: link.owner }), store({ done: false }, made({ claimId: 'claim-1' })))).rejects.toBeInstanceOf(LinkNotFound);
    // Nobody holds the name (removed, not yet claimed again): its former owner still reaches its links.
    await expect(viewLink('abc1234', onDomain(undefined), store({ done: false }, made({ claimId: 'claim-1' })))).resolves.toMatchObject({ shortCode: 'abc1234' });
  });

  it('writes only under the current claim, checked with the owner in the same step', async () => {
    const deps = store({ done: true, link: made({ claimId: 'claim-2' }) });
    await editLink('abc1234', { url: 'https://example.org/' }, onDomain({ owner: link.owner, claimId: 'claim-2' }), deps);
    await deleteLink('abc1234', onDomain({ owner: link.owner }), deps);
    await deleteLink('abc1234', context, deps);
    expect(deps.claims).toEqual([{ claimId: 'claim-2' }, { claimId: undefined }, undefined]);
  });

  it('answers 404, never 410 or 409, when the write finds a link of an earlier claim, and writes nothing on another account\'s name', async () => {
    const current = onDomain({ owner: link.owner, claimId: 'claim-2' });
    for (const old of [made({ claimId: 'claim-1', deleted: true }), made({ claimId: 'claim-1', disabled: true }), made({ claimId: 'claim-1' })]) {
      await expect(editLink('abc1234', { url: 'https://example.org/' }, current, store({ done: false, current: old }))).rejects.toBeInstanceOf(LinkNotFound);
      await expect(deleteLink('abc1234', current, store({ done: false, current: old }))).rejects.toBeInstanceOf(LinkNotFound);
    }
    const deps = store({ done: true, link: made({ claimId: 'claim-1' }) });
    const reclaimed = onDomain({ owner: 'acct:b', claimId: 'claim-3' });
    await expect(editLink('abc1234', { url: 'https://example.org/' }, reclaimed, deps)).rejects.toBeInstanceOf(LinkNotFound);
    await expect(deleteLink('abc1234', reclaimed, deps)).rejects.toBeInstanceOf(LinkNotFound);
    expect(deps.claims).toEqual([]);
  });
});
