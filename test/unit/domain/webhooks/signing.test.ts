import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signatureHeader, signedHeaders } from '../../../../functions/shared/domain/webhooks/signing';
import { anyText } from '../../../support/unicode-arbitraries';

/** Deliveries must verify with the Standard Webhooks library, as a receiver checks them. */
describe('Standard Webhooks signatures', () => {
  const nowMs = Date.now();

  it('verify with the reference library for any body, and a changed body or id does not', () => {
    fc.assert(
      fc.property(anyText(200), fc.string({ minLength: 1, maxLength: 40 }), (text, id) => {
        const secret = newSigningSecret();
        const body = JSON.stringify({ type: 'link.created', data: { text } });
        const headers = signedHeaders([secret], id, nowMs, body);
        expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
        expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
        expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': `${id}x` })).toThrow();
      }),
      { numRuns: 200 },
    );
  });

  it('carry one signature per secret, each verifying on its own: the overlap after a rotation', () => {
    const [old, current] = [newSigningSecret(), newSigningSecret()];
    const headers = signedHeaders([current, old], 'evt_1', nowMs, '{}');
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [old, current]) expect(new Webhook(secret).verify('{}', headers)).toEqual({});
    expect(() => new Webhook(newSigningSecret()).verify('{}', headers)).toThrow();
  });

  it('are HMAC-SHA256 of id.timestamp.body under the secret\'s bytes, as the specification\'s example gives', () => {
    // The example of the Standard Webhooks specification (spec.md, "Signature scheme").
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signatureHeader([secret], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(signatureHeader([secret], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265331, body)).not.toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('use 24 random bytes per secret', () => {
    const secrets = new Set(Array.from({ length: 100 }, newSigningSecret));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
  });
});
