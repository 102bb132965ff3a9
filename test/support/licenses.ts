/**
 * What the service ships (its runtime dependencies, bundled into the Lambdas and the dashboard) stays under
 * permissive licenses: a hosted service that shipped copyleft code (AGPL above all) would owe its users its source.
 */

/** SPDX identifiers that ask nothing of a service built on them beyond keeping the notice. */
const PERMISSIVE = new Set([
  '0BSD', 'Apache-2.0', 'BlueOak-1.0.0', 'BSD-2-Clause', 'BSD-3-Clause', 'CC0-1.0', 'ISC', 'MIT', 'MIT-0',
  'Python-2.0', 'Unlicense', 'Zlib',
  // Not SPDX, but what older packages wrote for the BSD licenses.
  'BSD',
]);

/** Packages whose package.json names no license; each read by hand in its LICENSE file. */
const READ_FROM_LICENSE_FILE: Readonly<Record<string, string>> = { decko: 'MIT', stickyfill: 'MIT' };

/** An SPDX expression is permissive when some choice it offers is: every part of an AND, any part of an OR. */
export function isPermissive(expression: string): boolean {
  const alternatives = splitTopLevel(stripParentheses(expression.trim()), ' OR ');
  return alternatives.some((alternative) => splitTopLevel(stripParentheses(alternative.trim()), ' AND ').every((term) => {
    const inner = stripParentheses(term.trim());
    return inner.includes(' OR ') || inner.includes(' AND ') ? isPermissive(inner) : PERMISSIVE.has(inner);
  }));
}

function stripParentheses(text: string): string {
  if (!text.startsWith('(') || !text.endsWith(')')) return text;
  let depth = 0;
  for (let index = 0; index < text.length - 1; index += 1) {
    if (text[index] === '(') depth += 1;
    if (text[index] === ')') depth -= 1;
    if (depth === 0) return text;
  }
  return stripParentheses(text.slice(1, -1).trim());
}

function splitTopLevel(text: string, operator: ' OR ' | ' AND '): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '(') depth += 1;
    else if (text[index] === ')') depth -= 1;
    else if (depth === 0 && text.startsWith(operator, index)) {
      parts.push(text.slice(start, index));
      start = index + operator.length;
    }
  }
  return [...parts, text.slice(start)];
}

interface LockFile {
  packages: Record<string, { license?: string; dev?: boolean; devOptional?: boolean }>;
}

/** The runtime (non-dev) packages of a package-lock.json whose license is not permissive, as `name license`. */
export function nonPermissiveRuntimePackages(lock: LockFile): string[] {
  return Object.entries(lock.packages)
    .filter(([location, entry]) => location !== '' && !entry.dev && !entry.devOptional)
    .map(([location, entry]) => {
      const name = location.replace(/^.*node_modules\//, '');
      return { name, license: entry.license ?? READ_FROM_LICENSE_FILE[name] };
    })
    .filter(({ license }) => license === undefined || !isPermissive(license))
    .map(({ name, license }) => `${name} ${license ?? '(no license declared)'}`);
}
