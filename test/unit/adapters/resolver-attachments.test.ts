import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseHostsFile, ResolverAttachments } from '../../../functions/shared/adapters/resolver-attachments';

const hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'hosts-')), 'hosts');

describe('the local stand-in for CloudFront tenants', () => {
  it('reads a hosts-format file: comments, several names per line, any case', () => {
    expect(parseHostsFile('# local names\n127.0.0.1  go.acme.com  Links.Acme.com # two\n\n::1 v6.acme.com\nnot-an-address x.acme.com\n')).toEqual(
      new Map([
        ['go.acme.com', ['127.0.0.1']],
        ['links.acme.com', ['127.0.0.1']],
        ['v6.acme.com', ['::1']],
      ]),
    );
  });

  it('serves a name that resolves to this machine, and says where the others point', async () => {
    writeFileSync(hostsFile, '127.0.0.1 go.acme.com\n203.0.113.7 elsewhere.acme.com\n');
    const attachments = new ResolverAttachments(hostsFile);
    expect(attachments.dnsRecordsFor('go.acme.com')).toEqual([{ type: 'A', name: 'go.acme.com', value: '127.0.0.1' }]);
    expect(await attachments.check('go.acme.com')).toEqual({ serving: true });
    expect(await attachments.check('elsewhere.acme.com')).toEqual({ serving: false, reason: 'elsewhere.acme.com resolves to 203.0.113.7, not to this service' });
    // Not in the file: the system resolver, which knows localhost and nothing under .invalid.
    expect(await attachments.check('localhost')).toEqual({ serving: true });
    expect(await attachments.check('nothing.invalid')).toMatchObject({ serving: false, reason: expect.stringContaining('does not resolve yet') });
    expect(await attachments.detach()).toBe(true);
  });
});
