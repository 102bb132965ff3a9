import { createShortenerClient } from '../../../clients/typescript/src';
import { ApiRefusal, listLinks } from '../../../bin/shortener/commands';

/** `shortener list --health broken` (issue 31): the filter sent as the API names it, a plan's 403 said in its words. */
function recordingClient(...answers: Response[]) {
  const urls: string[] = [];
  const client = createShortenerClient({
    baseUrl: 'https://api.test/prod',
    apiKey: 'sk_test',
    retry: { maxRetries: 0 },
    fetch: async (request) => {
      urls.push(request.url);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    },
  });
  return { client, urls };
}

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const link = { shortUrl: 'https://sho.rt/spring', shortCode: 'spring', domain: 'sho.rt', url: 'https://example.com/', createdAt: '2026-11-25T12:00:00.000Z', updatedAt: '2026-11-25T12:00:00.000Z', clicks: 3, passwordProtected: false, status: 'active', health: { status: 'server-error', statusCode: 503, checkedAt: '2026-11-26T00:00:00.000Z', since: '2026-11-25T00:00:00.000Z' } };

describe('shortener list --health', () => {
  it('asks for the broken links only and prints them', async () => {
    const { client, urls } = recordingClient(answer(200, { links: [link], nextCursor: null }));
    const out: string[] = [];
    await listLinks(client, { health: 'broken' }, { out: (text) => void out.push(text), err: () => undefined });
    expect(new URL(urls[0] ?? '').searchParams.get('health')).toBe('broken');
    expect(out.join('')).toContain('spring\tactive\t3\thttps://sho.rt/spring');
  });

  it('says the plan\'s refusal in the API\'s words', async () => {
    const message = 'Link health alerts (the broken-links filter and its events) require the PRO plan or higher.';
    const { client } = recordingClient(answer(403, { statusCode: 403, message, error: 'Forbidden', feature: 'linkHealth', currentPlan: 'INDIE', upgradeUrl: 'https://example.com/up' }));
    await expect(listLinks(client, { health: 'broken' }, { out: () => undefined, err: () => undefined })).rejects.toThrow(new ApiRefusal(`${message} (403)`));
  });
});
