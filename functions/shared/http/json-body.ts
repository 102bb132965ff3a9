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
  let text: string;
  try {
    text = STRICT_UTF8.decode(raw);
  } catch {
    throw new InvalidRequest(OwnMessages.bodyNotUtf8);
  }
  try {
    return JSON.parse(text, refuseLoneSurrogates);
  } catch (error) {
    throw error instanceof InvalidRequest ? error : new InvalidRequest(OwnMessages.bodyMalformed);
  }
}

/** Invalid bytes are refused rather than silently replaced by U+FFFD (which would end up in a stored URL). */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A lone surrogate (`"\ud800"` escaped in valid JSON) is no text either: it cannot be stored or shown as UTF-8. */
const LONE_SURROGATE = /\p{Cs}/u;

function refuseLoneSurrogates(key: string, value: unknown): unknown {
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value))) throw new InvalidRequest(OwnMessages.bodyNotUtf8);
  return value;
}

/** Both creation endpoints take a JSON object; arrays, strings and null are refused before any field is read. */
export function readJsonObject(event: Pick<APIGatewayProxyEvent, 'headers' | 'body' | 'isBase64Encoded'>, maxBytes: number): object {
  const body = readJsonBody(event, maxBytes);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequest(OwnMessages.bodyNotObject);
  return body;
}
