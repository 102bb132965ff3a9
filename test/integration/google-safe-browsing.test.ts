import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { GoogleSafeBrowsingChecker } from '../../functions/shared/adapters/google-safe-browsing';
import { SafetyCheckUnavailable } from '../../functions/shared/domain/errors';

/** A stand-in for Google's Lookup API on loopback; the client under test is the real one. */
type Behaviour = (request: { url: string; body: Record<string, unknown> }, response: ServerResponse) => void;

let server: Server;
let endpoint: string;
let behaviour: Behaviour;
const received: Array<{ url: string; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call = { url: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> };
      received.push(call);
      behaviour(call, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v4/threatMatches:find`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

const flagging = (flagged: string[]): Behaviour => (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(flagged.length ? { matches: flagged.map((url) => ({ threatType: 'MALWARE', threat: { url } })) } : {}));
};

const checker = (failOpen = false) => new GoogleSafeBrowsingChecker({ apiKey: async () => 'test-key', endpoint, failOpen });

describe('Google Safe Browsing client against a fake Lookup API', () => {
  it('flags what Google matches and asks about every URL of a batch in one call, for all four threat types', async () => {
    behaviour = flagging(['https://bad.example.com/']);
    const urls = ['https://bad.example.com/', ...Array.from({ length: 49 }, (_, i) => `https://good.example.com/${i}`)];
    expect([...(await checker().findUnsafe(urls))]).toEqual(['https://bad.example.com/']);
    expect(received).toHaveLength(1);
    expect(received[0]?.url).toContain('key=test-key');
    expect(received[0]?.body).toMatchObject({
      threatInfo: {
        threatTypes: ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'],
        threatEntries: urls.map((url) => ({ url })),
      },
    });
  });

  it('passes a clean URL (Google answers {})', async () => {
    behaviour = flagging([]);
    expect((await checker().findUnsafe(['https://example.com/'])).size).toBe(0);
  });

  it('refuses to guess on a 5xx, or lets it through when configured to fail open', async () => {
    behaviour = (_request, response) => {
      response.writeHead(503);
      response.end();
    };
    await expect(checker().findUnsafe(['https://example.com/'])).rejects.toBeInstanceOf(SafetyCheckUnavailable);
    expect((await checker(true).findUnsafe(['https://example.com/'])).size).toBe(0);
  });

  it('gives up on a server that never answers instead of hanging the request', async () => {
    behaviour = () => undefined;
    await expect(checker().findUnsafe(['https://example.com/'])).rejects.toBeInstanceOf(SafetyCheckUnavailable);
  });
});
