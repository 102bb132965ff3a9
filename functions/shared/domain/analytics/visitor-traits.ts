import { isbot } from 'isbot';
import UAParser from 'ua-parser-js';
import { dimensionValue } from './dimension-value';

/** What the stats keep of a User-Agent: whether it is a bot, and the browser's and system's family names. */
export interface AgentTraits {
  bot: boolean;
  browser: string;
  os: string;
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
