import * as z from 'zod/mini';
import { InvalidRequest } from './errors';
import { OwnMessages } from './messages';

/**
 * A whole-number query parameter as API Gateway passes it (a string), within [min, max]; anything else is
 * refused with `message`, which names the parameter.
 */
export function wholeNumberParameter(min: number, max: number, message: string) {
  return z.pipe(
    z.string().check(z.regex(/^\d{1,6}$/, message)),
    z.pipe(z.transform(Number), z.int().check(z.minimum(min, message), z.maximum(max, message))),
  );
}

/** `['rules', 2, 'url']` → `rules[2].url`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('');
}

/**
 * The schema's output, or a 400 with the first problem's message. Each schema's messages name their field, except
 * under `pathNamed` fields, whose messages say only what is wrong and get the field's path in front.
 */
export function parseOrRefuse<T extends z.ZodMiniType>(schema: T, input: unknown, pathNamed: ReadonlySet<string> = new Set()): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new InvalidRequest('Invalid request');
  const named = typeof issue.path[0] === 'string' && pathNamed.has(issue.path[0]);
  throw new InvalidRequest(named ? OwnMessages.smartFieldProblem(fieldPath(issue.path), issue.message) : issue.message);
}
