import type { APIGatewayProxyEvent } from 'aws-lambda';
import fc from 'fast-check';
import { clientKeyer, countedNetwork, keyedDigest } from '../../../functions/shared/http/client-key';
import { ORIGIN_VERIFY_HEADER, originSecretValues, trustedClientIp } from '../../../functions/shared/http/trusted-viewer';

/** Issue 16: client addresses are counted under a keyed hash, and the origin secret can be rotated. */

const digest = keyedDigest(async () => 'deployment secret');
const keyClient = clientKeyer(digest);

describe('counting a client without keeping its address', () => {
  it('counts an IPv6 host by its /64, an IPv4-mapped address as its IPv4 one', () => {
    expect(countedNetwork('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(countedNetwork('2001:db8:1:2::1')).toBe(countedNetwork('2001:db8:1:2:ffff::9'));
    expect(countedNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(countedNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(countedNetwork('not an address')).toBe('not an address');
  });

  it('gives a short keyed hash that holds no part of the address and changes with the secret', async () => {
    const key = await keyClient('203.0.113.7');
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(key).not.toContain('203');
    expect(await keyClient('203.0.113.7')).toBe(key);
    expect(await keyClient('203.0.113.8')).not.toBe(key);
    expect(await clientKeyer(keyedDigest(async () => 'another secret'))('203.0.113.7')).not.toBe(key);
  });

  it('never lets an address digest stand for a password digest of the same text', async () => {
    expect(await digest('address', 'x')).not.toBe(await digest('password', 'x'));
  });

  it('maps any text, the whole of Unicode included, to a key of the same shape', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary' }), async (text) => expect(await keyClient(text)).toMatch(/^[A-Za-z0-9_-]{22}$/)));
  });
});

describe('the origin secret during a rotation', () => {
  const event = (headers: Record<string, string>) => ({ headers, requestContext: { identity: { sourceIp: '192.0.2.9' } } }) as unknown as APIGatewayProxyEvent;
  const viewer = (secret: string) => event({ 'cloudfront-viewer-address': '198.51.100.4:443', [ORIGIN_VERIFY_HEADER]: secret });
  const rotating = async () => originSecretValues(JSON.stringify({ current: 'new-value', previous: 'old-value' }));

  it('reads the current value and, while a rotation runs, the previous one; a bare value as before rotation', () => {
    expect(originSecretValues('{"current":"a","previous":"b"}')).toEqual(['a', 'b']);
    expect(originSecretValues('{"current":"a"}')).toEqual(['a']);
    expect(originSecretValues('bare-value')).toEqual(['bare-value']);
    expect(originSecretValues('')).toEqual([]);
  });

  it('trusts the viewer address under either value, and under no other', async () => {
    expect(await trustedClientIp(viewer('new-value'), rotating)).toBe('198.51.100.4');
    expect(await trustedClientIp(viewer('old-value'), rotating)).toBe('198.51.100.4');
    expect(await trustedClientIp(viewer('a guess'), rotating)).toBe('192.0.2.9');
    expect(await trustedClientIp(viewer('new-value'), () => Promise.reject(new Error('SSM down')))).toBe('192.0.2.9');
  });
});
