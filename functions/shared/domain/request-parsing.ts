import * as z from 'zod/mini';
import { InvalidRequest } from './errors';
import { OwnMessages } from './messages';

/** A page of a listing (links, a webhook's deliveries): `limit` from 1 to 100, 20 when not given. */
export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

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

/**
 * A schema built when a request first needs it, not at import: zod/mini builds each schema's checks and internals
 * as it is constructed, and a function serving many routes would otherwise pay at every cold start for the schemas
 * of routes its requests may never take (issue 28: several milliseconds of the links function's import).
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** Clients often send null for "not set"; treat it as absent rather than as a type error. */
export const nullAsAbsent = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.nullish(schema),
    z.transform((value: z.output<T> | null | undefined) => value ?? undefined),
  );

/** `['rules', 2, 'url']` → `rules[2].url`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('');
}

/**
 * The schema's output, or a 400 with the first problem's message. Each schema's messages name their field, except
 * under `pathNamed` fields, whose messages say only what is wrong and get the field's path in front.
 */
export function parseOrRefuse<T extends z.ZodMiniType>(schema: T, input: unknown, pathNamed: ReadonlySet<string> = new Set()): z.output<T> {
  const result = parsed(schema, input, pathNamed);
  if (result.ok) return result.value;
  throw new InvalidRequest(result.message);
}

/** The same without throwing: what a bundle of its own hands back, since its error classes are not the caller's. */
export function parsed<T extends z.ZodMiniType>(schema: T, input: unknown, pathNamed: ReadonlySet<string>): { ok: true; value: z.output<T> } | { ok: false; message: string } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  if (!issue) return { ok: false, message: 'Invalid request' };
  const named = typeof issue.path[0] === 'string' && pathNamed.has(issue.path[0]);
  return { ok: false, message: named ? OwnMessages.smartFieldProblem(fieldPath(issue.path), issue.message) : issue.message };
}
