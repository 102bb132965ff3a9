import { formatNumber, ProblemNote, useFocusOnAppear } from '../ui';
import type { BulkRun } from './bulk-requests';

/** A bulk action's outcome: how many links changed, and each one that did not with the API's reason. */
export function BulkResults({ run }: { run: BulkRun }) {
  // Focus moves to the outcome, so a keyboard or screen reader user hears it without looking for it. Each run mounts
  // this anew (the page clears the last outcome when a run starts), so appearing is enough.
  const heading = useFocusOnAppear<HTMLHeadingElement>(true);
  const failed = run.results.filter((result) => !result.success);
  const changed = run.results.length - failed.length;
  return (
    <div class="bulk-results">
      <h3 ref={heading} tabIndex={-1}>
        {formatNumber(changed)} {changed === 1 ? 'link' : 'links'} changed, {formatNumber(failed.length)} not changed
      </h3>
      <ProblemNote problem={run.problem} />
      {failed.length > 0 && (
        <ul class="bulk-failures">
          {failed.map((result) => (
            <li key={`${result.domain ?? ''}/${result.code}`}>
              <code>{result.domain ? `${result.domain}/${result.code}` : result.code}</code>: {result.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
