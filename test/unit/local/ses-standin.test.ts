import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SesStandIn } from '../../../bin/local/ses-standin';

/** The local SES stand-in, driven by the real SDK client, as the functions drive it. */
describe('the SES stand-in', () => {
  const mailbox = mkdtempSync(path.join(tmpdir(), 'ses-standin-test-'));
  const standIn = new SesStandIn(mailbox);
  let client: SESv2Client;

  beforeAll(async () => {
    const port = await standIn.listen(0);
    client = new SESv2Client({ region: 'eu-west-1', endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  });
  afterAll(() => standIn.close());

  it('writes each SendEmail as an .eml file in the mailbox, non-ASCII subject encoded, body as sent', async () => {
    const { MessageId } = await client.send(
      new SendEmailCommand({
        FromEmailAddress: 'invitations@example.com',
        Destination: { ToAddresses: ['zoë@example.com'] },
        Content: { Simple: { Subject: { Data: 'Invité à Équipe' }, Body: { Text: { Data: 'Bonjour 👋\nhttp://localhost:3000/app/invitations/abc' } } } },
      }),
    );
    const files = readdirSync(mailbox).filter((name) => name.includes(String(MessageId)));
    expect(files).toHaveLength(1);
    const message = readFileSync(path.join(mailbox, files[0] as string), 'utf8');
    expect(message).toContain('From: invitations@example.com\r\n');
    expect(message).toContain('To: zoë@example.com\r\n');
    expect(message).toContain(`Subject: =?UTF-8?B?${Buffer.from('Invité à Équipe').toString('base64')}?=\r\n`);
    expect(message.endsWith('\r\n\r\nBonjour 👋\nhttp://localhost:3000/app/invitations/abc')).toBe(true);
  });

  it('refuses a message without a recipient as SES does, writing nothing', async () => {
    const before = readdirSync(mailbox).length;
    await expect(client.send(new SendEmailCommand({ FromEmailAddress: 'a@example.com', Destination: { ToAddresses: [] }, Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 't' } } } } }))).rejects.toMatchObject({
      name: 'BadRequestException',
    });
    expect(readdirSync(mailbox)).toHaveLength(before);
  });
});
