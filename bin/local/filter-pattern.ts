/**
 * CloudWatch Logs' JSON filter patterns, the part this stack uses: `{ $.a.b = "text" }`, `!=`, `*` wildcards in
 * the text, and several terms joined by `&&`. Anything else is refused at start-up, so the local stack never
 * silently filters differently from AWS.
 */
export type LogFilter = (line: string) => boolean;

const TERM = /^\$\.([A-Za-z0-9_.]+)\s*(=|!=)\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"&|()]+))$/;

function valueAt(document: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), document);
}

function matcher(expected: string): (value: unknown) => boolean {
  if (expected === '*') return (value) => value !== undefined;
  const pattern = new RegExp(`^${expected.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return (value) => value !== undefined && value !== null && typeof value !== 'object' && pattern.test(String(value));
}

export function compileFilterPattern(pattern: string): LogFilter {
  const body = /^\{\s*(.*?)\s*\}$/s.exec(pattern.trim())?.[1];
  if (body === undefined) throw new Error(`the local stack supports JSON filter patterns only, not: ${pattern}`);
  const terms = body.split('&&').map((term) => {
    const match = TERM.exec(term.trim());
    if (!match) throw new Error(`unsupported filter pattern term: ${term.trim()}`);
    const [, path = '', operator, quoted, bare] = match;
    const matches = matcher(quoted ?? bare ?? '');
    return (document: unknown) => (operator === '=' ? matches(valueAt(document, path)) : !matches(valueAt(document, path)));
  });
  // A line can only match `$.x = "text"` if it holds the text: most lines are rejected without parsing them.
  const required = [...body.matchAll(/(!?)=\s*"([^"*\\]+)"/g)].flatMap((match) => (match[1] === '!' ? [] : [match[2] ?? '']));
  return (line) => {
    if (!required.every((text) => line.includes(text))) return false;
    let document: unknown;
    try {
      document = JSON.parse(line);
    } catch {
      return false;
    }
    return terms.every((term) => term(document));
  };
}
