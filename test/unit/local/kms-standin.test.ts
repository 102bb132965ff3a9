import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DecryptCommand, EncryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { KmsStandIn } from '../../../bin/local/kms-standin';

/** The local stand-in for KMS, for the template's keys: the real SDK client talks to it, and its ciphertexts are real. */
const region = 'us-east-1';
const arn = (id: string) => `arn:aws:kms:${region}:000000000000:key/${id}`;
const clientOn = (port: number) => new KMSClient({ region, endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });

describe('the KMS stand-in', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kms-')), 'kms.json');
  let keys: KmsStandIn;
  let client: KMSClient;
  beforeAll(async () => {
    keys = new KmsStandIn(['SecretsKey', 'OtherKey'], region, file);
    client = clientOn(await keys.listen(0));
  });
  afterAll(() => keys.close());

  it('gives data keys whose encrypted form only the same key and encryption context open', async () => {
    const context = { webhookId: 'wh_1' };
    const dataKey = await client.send(new GenerateDataKeyCommand({ KeyId: arn('SecretsKey'), KeySpec: 'AES_256', EncryptionContext: context }));
    expect([dataKey.Plaintext?.length, dataKey.KeyId]).toEqual([32, arn('SecretsKey')]);
    expect(Buffer.from(dataKey.CiphertextBlob ?? []).includes(Buffer.from(dataKey.Plaintext ?? []))).toBe(false);
    const opened = await client.send(new DecryptCommand({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: context }));
    expect(Buffer.from(opened.Plaintext ?? []).equals(Buffer.from(dataKey.Plaintext ?? []))).toBe(true);
    await expect(client.send(new DecryptCommand({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: { webhookId: 'wh_2' } }))).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    await expect(client.send(new DecryptCommand({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: context, KeyId: arn('OtherKey') }))).rejects.toMatchObject({ name: 'IncorrectKeyException' });
    const tampered = Buffer.from(dataKey.CiphertextBlob ?? []);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    await expect(client.send(new DecryptCommand({ CiphertextBlob: tampered, EncryptionContext: context }))).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
  });

  it('encrypts and decrypts small data, and knows only the template\'s keys', async () => {
    const sealed = await client.send(new EncryptCommand({ KeyId: 'SecretsKey', Plaintext: Buffer.from('ünïcode ✓') }));
    const opened = await client.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }));
    expect(Buffer.from(opened.Plaintext ?? []).toString('utf8')).toBe('ünïcode ✓');
    await expect(client.send(new EncryptCommand({ KeyId: arn('NotInTheTemplate'), Plaintext: Buffer.from('x') }))).rejects.toMatchObject({ name: 'NotFoundException' });
    await expect(client.send(new EncryptCommand({ KeyId: 'SecretsKey', Plaintext: Buffer.alloc(4097) }))).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(client.send(new DecryptCommand({ CiphertextBlob: Buffer.from('not a ciphertext') }))).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
  });

  it('keeps its key material across restarts, so what was sealed still opens', async () => {
    const sealed = await client.send(new EncryptCommand({ KeyId: 'SecretsKey', Plaintext: Buffer.from('kept') }));
    const restarted = new KmsStandIn(['SecretsKey'], region, file);
    const again = clientOn(await restarted.listen(0));
    try {
      const opened = await again.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }));
      expect(Buffer.from(opened.Plaintext ?? []).toString('utf8')).toBe('kept');
    } finally {
      await restarted.close();
    }
  });
});
