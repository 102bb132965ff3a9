import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { SesMailer } from '../../../functions/shared/adapters/ses-mailer';

const ses = mockClient(SESv2Client);
beforeEach(() => ses.reset());

describe('mail through SES v2', () => {
  it('sends one simple UTF-8 message from the stage\'s sender to the one recipient', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await new SesMailer(new SESv2Client({ region: 'eu-west-1' }), 'invitations@example.com').send({ to: 'zoë@example.com', subject: 'You are invited to Équipe', text: 'Hello\nhttps://x/app/invitations/t' });
    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input)).toEqual([
      {
        FromEmailAddress: 'invitations@example.com',
        Destination: { ToAddresses: ['zoë@example.com'] },
        Content: { Simple: { Subject: { Data: 'You are invited to Équipe', Charset: 'UTF-8' }, Body: { Text: { Data: 'Hello\nhttps://x/app/invitations/t', Charset: 'UTF-8' } } } },
      },
    ]);
  });

  it('lets SES\'s refusal reach the caller, which takes the invitation back', async () => {
    ses.on(SendEmailCommand).rejects(new Error('Email address is not verified'));
    await expect(new SesMailer(new SESv2Client({ region: 'eu-west-1' }), 'invitations@example.com').send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow('not verified');
  });
});
