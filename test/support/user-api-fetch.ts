/**
 * A fetch for the dashboard's calls to the user pool's API (AWS JSON): it records each call's URL, `X-Amz-Target`
 * and body, and answers from a list, in order (an empty 200 once the list runs out).
 */
export function fetchAnswering(...answers: Array<{ status?: number; body: unknown }>) {
  const calls: Array<{ url: string; target: string | null; body: unknown }> = [];
  const fetcher = (async (url: string, init: RequestInit) => {
    calls.push({ url, target: new Headers(init.headers).get('x-amz-target'), body: JSON.parse(String(init.body)) });
    const answer = answers.shift() ?? { body: {} };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  }) as typeof fetch;
  return { fetcher, calls };
}
