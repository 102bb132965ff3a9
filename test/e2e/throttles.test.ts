import { Messages } from '../../functions/shared/domain/messages';
import { METHOD_THROTTLES } from '../../lib/capacity';
import { createApiKey, http, jsonHeaders, uniqueLoopbackAddress } from '../support/local-stack';

/**
 * Issue 16: each method has its own throttle, played by the local gateway from the template's MethodSettings. A
 * burst of anonymous v1 calls past v1's bucket is refused by the gateway (nothing reaches a function), while an API
 * client calling at the same moment is served.
 */
describe('per-method throttles', () => {
  it('refuse a flood of anonymous v1 calls at the gateway while v2 callers are served', async () => {
    const { apiKey } = await createApiKey('ENTERPRISE');
    const { burstLimit, rateLimit } = METHOD_THROTTLES.anonymous;
    // More than the bucket can pass in 5 s, so a slow machine spreading the flood over seconds still meets it.
    const startedAt = Date.now();
    const flood = Array.from({ length: burstLimit + rateLimit * 5 + 50 }, () =>
      // Each from its own address: the service's own 5-a-minute limit per address is not what answers here.
      http('POST', '/v1/shorten', { headers: jsonHeaders(), body: { url: 'https://example.com/flood' }, localAddress: uniqueLoopbackAddress() }),
    );
    const paying = Array.from({ length: 20 }, (_, index) => http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: `https://example.com/paying/${index}` } }));
    const [flooded, served] = await Promise.all([Promise.all(flood), Promise.all(paying)]);

    const throttled = flooded.filter((answer) => answer.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    // The gateway's own 429: the spec's message without the service's retryAfter (no function saw the request).
    expect(throttled[0]?.json()).toEqual({ statusCode: 429, message: Messages.rateLimited, error: 'Too Many Requests' });
    // Never more through than the bucket held plus what it refilled while the flood lasted.
    const seconds = Math.ceil((Date.now() - startedAt) / 1000);
    expect(flooded.filter((answer) => answer.status === 201).length).toBeLessThanOrEqual(burstLimit + rateLimit * seconds);
    expect(served.map((answer) => answer.status)).toEqual(Array(20).fill(201));
  });
});
