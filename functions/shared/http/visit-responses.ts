import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { Messages, OwnMessages } from '../domain/messages';
import type { VisitOutcome } from '../domain/visit';
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from './error-responses';
import { json } from './responses';

/** Visitor answers. Plain links may sit in CloudFront briefly; anything that can change is never cached. */
export function visitResponse(outcome: VisitOutcome, event: Pick<APIGatewayProxyEvent, 'httpMethod'>): APIGatewayProxyResult {
  const response = (() => {
    switch (outcome.kind) {
      case 'redirect':
        return {
          statusCode: 302,
          headers: { location: outcome.url, 'cache-control': outcome.cacheable ? 'public, max-age=60' : 'no-store' },
          body: '',
        };
      case 'notFound':
        return json(404, { statusCode: 404, message: OwnMessages.notFound, error: 'Not Found' });
      case 'gone':
        return json(410, { statusCode: 410, message: OwnMessages.gone, error: 'Gone' });
      case 'maintenance':
        return json(
          503,
          { statusCode: 503, message: Messages.maintenance, error: 'Service Unavailable' },
          { 'retry-after': String(RETRY_AFTER_UNAVAILABLE_SECONDS) },
        );
    }
  })();
  return event.httpMethod === 'HEAD' ? { ...response, body: '' } : response;
}
