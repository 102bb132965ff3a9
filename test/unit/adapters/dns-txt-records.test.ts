import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseTxtFile, ResolverTxtRecords } from '../../../functions/shared/adapters/dns-txt-records';

const txtFile = path.join(mkdtempSync(path.join(tmpdir(), 'txt-')), 'txt');

describe('TXT records for claims\' challenges', () => {
  it('read a local file of `name value` lines: comments, quotes, several values per name, any case', () => {
    expect(parseTxtFile('# local TXT\n_shortener-challenge.Go.Acme.com. shortener-verification=abc\n_x.acme.com "v=spf1 -all"\n_x.acme.com second value \nlonely\n')).toEqual(
      new Map([
        ['_shortener-challenge.go.acme.com', ['shortener-verification=abc']],
        ['_x.acme.com', ['v=spf1 -all', 'second value']],
      ]),
    );
  });

  it('answer from the file first, then from DNS, and with nothing for a name DNS does not know', async () => {
    writeFileSync(txtFile, '_shortener-challenge.go.acme.com shortener-verification=abc\n');
    const records = new ResolverTxtRecords(txtFile);
    expect(await records.lookup('_shortener-challenge.go.acme.com')).toEqual(['shortener-verification=abc']);
    expect(await records.lookup('_shortener-challenge.nothing.invalid')).toEqual([]);
    expect(await new ResolverTxtRecords(path.join(txtFile, 'missing')).lookup('nothing.invalid')).toEqual([]);
  });
});
