import type { APIGatewayProxyEvent } from 'aws-lambda';
import { BodyTooLarge, InvalidRequest } from '../domain/errors';
import { OwnMessages } from '../domain/messages';
import { header } from './headers';

/** The spec requires `Content-Type: application/json`; parameters such as charset are fine. */
export function readJsonBody(event: Pick<APIGatewayProxyEvent, 'headers' | 'body' | 'isBase64Encoded'>, maxBytes: number): unknown {
  const contentType = header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') throw new InvalidRequest(OwnMessages.contentType);
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '', 'utf8');
  if (raw.length > maxBytes) throw new BodyTooLarge(OwnMessages.bodyTooLarge);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new InvalidRequest(OwnMessages.bodyMalformed);
  }
}

/** Both creation endpoints take a JSON object; arrays, strings and null are refused before any field is read. */
export function readJsonObject(event: Pick<APIGatewayProxyEvent, 'headers' | 'body' | 'isBase64Encoded'>, maxBytes: number): object {
  const body = readJsonBody(event, maxBytes);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequest(OwnMessages.bodyNotObject);
  return body;
}
