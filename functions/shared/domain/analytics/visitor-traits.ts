import { isbot } from 'isbot';
import UAParser from 'ua-parser-js';

/** What the stats keep of a User-Agent: whether it is a bot, and the browser's and system's family names. */
export interface AgentTraits {
  bot: boolean;
  browser: string;
  os: string;
}

/** Longest stored value of any dimension (a city, a campaign): attribute names and CSV cells stay small. */
export const MAX_DIMENSION_VALUE_LENGTH = 100;

/**
 * A dimension value as given, without control characters and cut to MAX_DIMENSION_VALUE_LENGTH characters
 * (whole code points: a cut never splits a character), or `fallback` when nothing is left.
 */
export function dimensionValue(raw: string | undefined, fallback: string): string {
  const cleaned = (raw ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned ? Array.from(cleaned).slice(0, MAX_DIMENSION_VALUE_LENGTH).join('') : fallback;
}

/** Traffic repeats a few thousand agents: each is classified once per container (isbot's pattern, ua-parser's rules). */
const MEMO_SIZE = 2_000;
const memo = new Map<string, AgentTraits>();

/**
 * isbot's verdict and ua-parser-js's families (names only: no versions, no device models). An absent
 * User-Agent is not one isbot knows: a person's, as far as counting goes (the device rules call it a bot).
 */
export function agentTraits(userAgent: string | undefined): AgentTraits {
  if (!userAgent) return { bot: false, browser: 'unknown', os: 'unknown' };
  let traits = memo.get(userAgent);
  if (!traits) {
    if (memo.size >= MEMO_SIZE) memo.clear();
    const parsed = new UAParser(userAgent);
    traits = { bot: isbot(userAgent), browser: dimensionValue(parsed.getBrowser().name, 'unknown'), os: dimensionValue(parsed.getOS().name, 'unknown') };
    memo.set(userAgent, traits);
  }
  return traits;
}
