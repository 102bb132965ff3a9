import { useEffect, useState } from 'preact/hooks';
import { call, knownUpgradeUrl, type Api, type Problem } from './api';
import type { paths } from '../../clients/typescript/src/schema';
import { formatDate, formatNumber, ProblemNote } from './ui';

type Usage = paths['/v2/usage']['get']['responses'][200]['content']['application/json'];

/** This month's use of the plan's quota, when it resets, and the way to a bigger plan. */
export function UsagePage({ api }: { api: Api }) {
  const upgradeUrl = knownUpgradeUrl();
  const [usage, setUsage] = useState<Usage>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    void call(() => api.GET('/v2/usage')).then((answer) => ('problem' in answer ? setProblem(answer.problem) : setUsage(answer.data)));
  }, [api]);
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">Usage</h1>
      <ProblemNote problem={problem} />
      {usage && (
        <div class="panel">
          <p>
            Plan: <strong data-testid="plan">{usage.plan}</strong>
          </p>
          {usage.monthlyLimit === null ? (
            <p>
              <span data-testid="used">{formatNumber(usage.used)}</span> requests this month; your plan has no monthly limit.
            </p>
          ) : (
            <>
              <label for="quota">
                <span data-testid="used">{formatNumber(usage.used)}</span> of <span data-testid="limit">{formatNumber(usage.monthlyLimit)}</span> requests this month
              </label>
              <meter id="quota" min={0} max={usage.monthlyLimit} value={usage.used} low={usage.monthlyLimit * 0.8} high={usage.monthlyLimit * 0.95} optimum={0} />
            </>
          )}
          <p>
            Resets on <span data-testid="reset">{formatDate(usage.resetDate)}</span>.
          </p>
          <p>
            Rate limit: {formatNumber(usage.rateLimit.remaining)} of {formatNumber(usage.rateLimit.limit)} requests left this minute.
          </p>
          {upgradeUrl && (
            <p>
              <a href={upgradeUrl} rel="noopener noreferrer" target="_blank">
                Upgrade your plan
              </a>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
