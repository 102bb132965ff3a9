import { createServer, type Server } from 'node:http';
import { listen } from './listen';

/** An error the stand-in answers in the AWS JSON protocols' shape: `{"__type", "message"}`, status 400. */
export class AwsJsonError extends Error {
  constructor(readonly type: string, message: string) {
    super(message);
  }
}

/**
 * An HTTP server speaking one service's AWS JSON protocol, as the SDK's own clients send it: the operation in
 * `X-Amz-Target` (`<prefix>.<Operation>`), the input as the JSON body, the output as JSON. Shared by the local
 * stand-ins (SSM, SQS).
 */
export function listenAwsJson(
  handle: (operation: string, input: Record<string, unknown>) => unknown,
  protocol: { targetPrefix: string; contentType: string },
  port: number,
  host: string,
): { server: Server; listening: Promise<number> } {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const operation = String(request.headers['x-amz-target'] ?? '').replace(`${protocol.targetPrefix}.`, '');
      let status = 200;
      let body: unknown;
      try {
        body = handle(operation, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>);
      } catch (error) {
        status = 400;
        body = error instanceof AwsJsonError ? { __type: error.type, message: error.message } : { __type: 'InternalServerError', message: 'stand-in failure' };
      }
      response.writeHead(status, { 'content-type': protocol.contentType });
      response.end(JSON.stringify(body));
    });
  });
  return { server, listening: listen(server, port, host) };
}
