import type { LookupAddress } from 'node:dns';

/** A name server that never answers: only the exchange's deadline can end the wait. */
const lookup = jest.fn<Promise<LookupAddress[]>, [string, { all: true }]>();
jest.mock('node:dns/promises', () => ({ lookup: (...args: [string, { all: true }]) => lookup(...args) }));

import { guardedRequest } from '../../../functions/shared/adapters/guarded-request';

const request = { method: 'POST' as const, headers: {}, body: '{}' };

describe('the deadline of an exchange with a URL someone else chose', () => {
  it('covers the name\'s lookup: a resolver that never answers ends as a DNS failure at the deadline', async () => {
    lookup.mockReturnValue(new Promise(() => undefined));
    const result = await guardedRequest('https://slow-dns.example.com/hook', request, { allowPrivate: false, timeoutMs: 200 });
    expect(result).toMatchObject({ failure: 'dns', code: 'ETIMEOUT' });
    // The whole exchange, lookup included, ended at its deadline (a margin for a busy machine, far below a hung lookup).
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('still refuses a name with any private answer, and never connects', async () => {
    lookup.mockResolvedValue([{ address: '93.184.215.14', family: 4 }, { address: '169.254.169.254', family: 4 }]);
    await expect(guardedRequest('https://rebinding.example.com/hook', request, { allowPrivate: false, timeoutMs: 200 })).resolves.toMatchObject({ failure: 'refused' });
  });

  it.each(['ftp://files.example.com/a', 'file:///etc/passwd', 'gopher://example.com/'])('refuses %s without connecting or throwing: only HTTP is spoken', async (url) => {
    lookup.mockClear();
    await expect(guardedRequest(url, request, { allowPrivate: false, timeoutMs: 200 })).resolves.toMatchObject({ failure: 'refused' });
    expect(lookup).not.toHaveBeenCalled();
  });
});
