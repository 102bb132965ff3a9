import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as path from 'node:path';
import { listen } from './listen';

/** SES v2's SendEmail, as the SDK sends it: REST JSON, POST to this path. */
const SEND_EMAIL_PATH = '/v2/email/outbound-emails';
/** SES refuses larger messages; the stand-in guards its disk the same way. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

interface SimpleContent {
  Subject?: { Data?: string };
  Body?: { Text?: { Data?: string }; Html?: { Data?: string } };
}

interface SendEmailInput {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  Content?: { Simple?: SimpleContent };
}

/** A header value as RFC 2047 allows non-ASCII text in it, so mail programs open the file as it was meant. */
function headerText(value: string): string {
   
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * A stand-in for the one SES v2 call the service makes (SendEmail, simple content), for a local run: each message
 * becomes a `.eml` file in the mailbox directory (newest last by name), which any mail program opens. Nothing is
 * sent anywhere. Errors answer in SES's shape (`BadRequestException`), as the SDK expects.
 */
export class SesStandIn {
  private server?: Server;

  constructor(readonly mailbox: string) {
    mkdirSync(mailbox, { recursive: true });
  }

  async listen(port: number): Promise<number> {
    this.server = createServer((request, response) => this.handle(request, response));
    return listen(this.server, port, '127.0.0.1');
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      const answer = (status: number, body: unknown, errorType?: string) => {
        response.writeHead(status, { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'POST' || request.url?.split('?')[0] !== SEND_EMAIL_PATH) return answer(404, { message: 'not a SendEmail call' }, 'NotFoundException');
      if (size > MAX_REQUEST_BYTES) return answer(400, { message: 'message too large' }, 'BadRequestException');
      try {
        const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SendEmailInput;
        return answer(200, { MessageId: this.deliver(input) });
      } catch (error) {
        return answer(400, { message: error instanceof Error ? error.message : 'bad request' }, 'BadRequestException');
      }
    });
  }

  /** Writes the message; its file name starts with the time, so a listing sorts oldest first. */
  private deliver(input: SendEmailInput): string {
    const from = input.FromEmailAddress;
    const to = input.Destination?.ToAddresses ?? [];
    const simple = input.Content?.Simple;
    if (!from || to.length === 0 || !simple?.Subject?.Data) throw new Error('FromEmailAddress, Destination.ToAddresses and Content.Simple.Subject are required');
    const id = randomUUID();
    const text = simple.Body?.Text?.Data ?? simple.Body?.Html?.Data ?? '';
    const message = [
      `Message-ID: <${id}@ses-standin.local>`,
      `Date: ${new Date().toUTCString()}`,
      `From: ${from}`,
      `To: ${to.join(', ')}`,
      `Subject: ${headerText(simple.Subject.Data)}`,
      'MIME-Version: 1.0',
      `Content-Type: ${simple.Body?.Text ? 'text/plain' : 'text/html'}; charset=UTF-8`,
      'Content-Transfer-Encoding: 8bit',
      '',
      text,
    ].join('\r\n');
    writeFileSync(path.join(this.mailbox, `${new Date().toISOString().replaceAll(':', '-')}-${id}.eml`), message, { mode: 0o600 });
    return id;
  }
}
