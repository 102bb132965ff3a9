import { createServer, type RequestListener, type Server } from 'node:http';
import { listen } from './listen';

/** An error the stand-in answers in the AWS JSON protocols' shape: `{"__type", "message"}`, status 400. */
export class AwsJsonError extends Error {
  constructor(readonly type: string, message: string) {
    super(message);
  }
}

/** What a stand-in speaks: the operation's prefix in `X-Amz-Target` and the protocol's content type. */
export interface AwsJsonProtocol {
  targetPrefix: string;
  contentType: string;
}

type Operations = (operation: string, input: Record<string, unknown>) => unknown;

/**
 * Answers one service's AWS JSON protocol, as the SDK's own clients send it: the operation in `X-Amz-Target`
 * (`<prefix>.<Operation>`), the input as the JSON body, the output (awaited) as JSON.
 */
export function awsJsonListener(handle: Operations, protocol: AwsJsonProtocol): RequestListener {
  return (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const operation = String(request.headers['x-amz-target'] ?? '').replace(`${protocol.targetPrefix}.`, '');
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': protocol.contentType });
        response.end(JSON.stringify(body));
      };
      Promise.resolve()
        .then(() => handle(operation, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>))
        .then(
          (body) => answer(200, body),
          (error: unknown) => answer(400, error instanceof AwsJsonError ? { __type: error.type, message: error.message } : { __type: 'InternalServerError', message: 'stand-in failure' }),
        );
    });
  };
}

/** An HTTP server of its own for a stand-in (SSM, SQS, KMS). */
export function listenAwsJson(handle: Operations, protocol: AwsJsonProtocol, port: number, host: string): { server: Server; listening: Promise<number> } {
  const server = createServer(awsJsonListener(handle, protocol));
  return { server, listening: listen(server, port, host) };
}
