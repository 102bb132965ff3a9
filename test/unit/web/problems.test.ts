import { knownUpgradeUrl, problemOf } from '../../../web/dashboard/problems';

describe('a refusal in words (issue 20)', () => {
  it('is the API\'s message, with its upgrade link and wait', () => {
    expect(problemOf({ statusCode: 429, message: 'Monthly limit reached', upgradeUrl: 'https://example.com/pricing', retryAfter: 30 }, 429)).toEqual({
      status: 429,
      message: 'Monthly limit reached',
      upgradeUrl: 'https://example.com/pricing',
      retryAfter: 30,
    });
    expect(knownUpgradeUrl()).toBe('https://example.com/pricing');
  });

  it('never offers a link that is not a web address, whatever a body carries', () => {
    for (const upgradeUrl of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<script>', '//evil.example', 42, null]) {
      expect(problemOf({ message: 'Forbidden', upgradeUrl }, 403)).toEqual({ status: 403, message: 'Forbidden' });
    }
    expect(knownUpgradeUrl()).toBe('https://example.com/pricing');
  });

  it('has words for an answer that is not the API\'s, and for no answer at all', () => {
    expect(problemOf('<html>Bad gateway</html>', 502).message).toBe('The service answered 502.');
    expect(problemOf({ message: 7 }, 500).message).toBe('The service answered 500.');
    expect(problemOf(undefined, 0).message).toBe('The service could not be reached. Check your connection and try again.');
  });
});
