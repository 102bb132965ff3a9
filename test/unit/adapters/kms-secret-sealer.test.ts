import { KMSClient } from '@aws-sdk/client-kms';
import { KmsStandIn } from '../../../bin/local/kms-standin';
import { KmsSecretSealer } from '../../../functions/shared/adapters/kms-secret-sealer';
import { newSigningSecret } from '../../../functions/shared/domain/webhooks/signing';

/** Webhook secrets sealed with a data key of their own (issue 27), against the local KMS stand-in. */
const region = 'us-east-1';
const keyArn = `arn:aws:kms:${region}:000000000000:key/SecretsKey`;
let keys: KmsStandIn;
let client: KMSClient;

beforeAll(async () => {
  keys = new KmsStandIn(['SecretsKey'], region);
  client = new KMSClient({ region, endpoint: `http://127.0.0.1:${await keys.listen(0)}`, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
});
afterAll(() => keys.close());

describe('sealing webhook secrets', () => {
  it('stores no trace of the secret, and opens only for the webhook it was sealed for', async () => {
    const sealer = new KmsSecretSealer(client, keyArn);
    const secret = newSigningSecret();
    const sealed = await sealer.seal(secret, 'wh_one');
    expect(sealed).toMatch(/^kms1\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('whsec_');
    expect(sealed).not.toContain(secret.slice('whsec_'.length, 20));
    // Each seal has a data key of its own: the same secret never looks the same twice.
    expect(await sealer.seal(secret, 'wh_one')).not.toBe(sealed);
    expect(await new KmsSecretSealer(client, keyArn).open(sealed, 'wh_one')).toBe(secret);
    await expect(new KmsSecretSealer(client, keyArn).open(sealed, 'wh_two')).rejects.toThrow();
  });

  it('reads a secret stored in the clear before sealing as it is (the migration path)', async () => {
    const legacy = newSigningSecret();
    expect(await new KmsSecretSealer(client, keyArn).open(legacy, 'wh_old')).toBe(legacy);
  });

  it('asks KMS once per secret and container: deliveries sign without a call each', async () => {
    const sealer = new KmsSecretSealer(client, keyArn);
    const secret = newSigningSecret();
    const sealed = await sealer.seal(secret, 'wh_cached');
    let calls = 0;
    client.middlewareStack.add((next) => async (args) => {
      calls += 1;
      return next(args);
    }, { step: 'initialize', name: 'countCalls' });
    try {
      for (let index = 0; index < 3; index++) expect(await sealer.open(sealed, 'wh_cached')).toBe(secret);
      expect(calls).toBe(1);
    } finally {
      client.middlewareStack.remove('countCalls');
    }
  });

  it('refuses a sealed value that is not whole', async () => {
    await expect(new KmsSecretSealer(client, keyArn).open('kms1.abc', 'wh_x')).rejects.toThrow('malformed');
  });
});
