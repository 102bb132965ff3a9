import type { APIGatewayProxyResult } from 'aws-lambda';
import { HSTS_HEADER } from './headers';

export type HttpResponse = APIGatewayProxyResult & { headers: Record<string, string> };

/** API answers are data, never pages: forbid sniffing and framing, and keep them out of shared caches. */
const API_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  ...HSTS_HEADER,
};

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { statusCode, headers: { ...API_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** 204: nothing to say, and nothing to cache. */
export function noContent(): HttpResponse {
  const { 'content-type': _contentType, ...headers } = API_HEADERS;
  return { statusCode: 204, headers, body: '' };
}
