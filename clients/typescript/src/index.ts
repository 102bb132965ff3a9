export { createShortenerClient, type ShortenerClient, type ShortenerClientOptions } from './client';
export { DEFAULT_RETRY_POLICY, retryingFetch, type RetryPolicy } from './retrying-fetch';
export type { components, paths } from './schema';
