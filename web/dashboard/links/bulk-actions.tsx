import { useRef, useState } from 'preact/hooks';
import type { Api } from '../api';
import { formatNumber } from '../ui';
import { BulkResults } from './bulk-results';
import { changeMatching, changeSelected, tagsOf, type BulkChoice, type BulkFilter, type BulkRun } from './bulk-requests';
import type { Link } from './link-types';

type ActionName = BulkChoice['action'];

const ACTION_LABELS: Record<ActionName, string> = { addTags: 'Add tags', removeTags: 'Remove tags', update: 'Change destination', delete: 'Delete' };

/** What the confirmation asks, in words: the action and how many links (or which filter) it touches. */
function question(choice: BulkChoice, scope: string): string {
  switch (choice.action) {
    case 'delete':
      return `Delete ${scope}?`;
    case 'addTags':
      return `Add ${choice.tags.join(', ')} to ${scope}?`;
    case 'removeTags':
      return `Remove ${choice.tags.join(', ')} from ${scope}?`;
    case 'update':
      return `Send ${scope} to ${choice.changes.url}?`;
  }
}

/**
 * The links page's bulk actions (issue 31): the selected rows, or every link the filters pick, one action, a
 * confirmation, then each link's result. `filter` is absent while no filter is set: "all links" is never one click away.
 */
export function BulkActions(props: { api: Api; selected: readonly Link[]; filter: BulkFilter | undefined; onDone: () => void }) {
  const { api, selected, filter } = props;
  const [scope, setScope] = useState<'selected' | 'matching'>('selected');
  // No action until one is chosen: nothing is one Enter away, and the page shows no field it does not need.
  const [action, setAction] = useState<ActionName | ''>('');
  const [tags, setTags] = useState('');
  const [url, setUrl] = useState('');
  const [running, setRunning] = useState<string>();
  const [run, setRun] = useState<BulkRun>();
  const confirm = useRef<HTMLDialogElement>(null);
  const matching = scope === 'matching' && filter !== undefined;
  const choice: BulkChoice | undefined =
    action === '' ? undefined : action === 'delete' ? { action } : action === 'update' ? { action, changes: { url: url.trim() } } : { action, tags: tagsOf(tags) };
  const scopeWords = matching ? 'every link matching these filters' : selected.length === 1 ? '1 selected link' : `${formatNumber(selected.length)} selected links`;
  const ready =
    (matching || selected.length > 0) && choice !== undefined && (choice.action === 'delete' || (choice.action === 'update' ? choice.changes.url !== '' : choice.tags.length > 0));

  const go = async () => {
    confirm.current?.close();
    if (!choice) return;
    setRun(undefined);
    setRunning('Working…');
    const outcome = matching
      ? await changeMatching(api, filter, choice, (count) => setRunning(`Working… ${formatNumber(count)} links so far`))
      : await changeSelected(api, selected, choice);
    setRunning(undefined);
    setRun(outcome);
    props.onDone();
  };

  return (
    <section class="panel bulk" aria-labelledby="bulk-title">
      <h2 id="bulk-title">Bulk actions</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) confirm.current?.showModal();
        }}
      >
        <fieldset>
          <legend>Apply to</legend>
          <label class="check">
            <input type="radio" name="bulk-scope" checked={!matching} onChange={() => setScope('selected')} />
            {selected.length === 1 ? 'The selected link' : `The ${formatNumber(selected.length)} selected links`}
          </label>
          {filter && (
            <label class="check">
              <input type="radio" name="bulk-scope" checked={matching} onChange={() => setScope('matching')} />
              All links matching these filters
            </label>
          )}
        </fieldset>
        <div class="field">
          <label for="bulk-action">Action</label>
          <select id="bulk-action" value={action} onChange={(event) => setAction(event.currentTarget.value as ActionName | '')}>
            <option value="">Choose an action</option>
            {(Object.keys(ACTION_LABELS) as ActionName[]).map((name) => (
              <option key={name} value={name}>
                {ACTION_LABELS[name]}
              </option>
            ))}
          </select>
        </div>
        {(action === 'addTags' || action === 'removeTags') && (
          <div class="field">
            <label for="bulk-tags">Tags</label>
            <input id="bulk-tags" value={tags} aria-describedby="bulk-tags-help" onInput={(event) => setTags(event.currentTarget.value)} />
            <p id="bulk-tags-help" class="help">
              Separated by commas or spaces
            </p>
          </div>
        )}
        {action === 'update' && (
          <div class="field">
            <label for="bulk-url">New destination</label>
            <input id="bulk-url" type="url" value={url} placeholder="https://" onInput={(event) => setUrl(event.currentTarget.value)} />
          </div>
        )}
        <div class="field">
          <button type="submit" disabled={!ready || running !== undefined}>
            Apply…
          </button>
        </div>
      </form>
      <p role="status" class="help">
        {running ?? ''}
      </p>
      {run && <BulkResults run={run} />}
      <dialog ref={confirm} aria-labelledby="bulk-confirm-title" class="confirm">
        <h2 id="bulk-confirm-title">{choice ? question(choice, scopeWords) : ''}</h2>
        <p>
          Each link is changed on its own; a link someone else changed meanwhile keeps their change.
          {choice?.action === 'delete' ? ' Deleted links answer their visitors 410 from then on: this cannot be undone.' : ''}
        </p>
        <div class="actions">
          <button type="button" class={choice?.action === 'delete' ? 'danger' : ''} onClick={go}>
            {choice ? ACTION_LABELS[choice.action] : ''}
          </button>
          <button type="button" class="quiet" onClick={() => confirm.current?.close()} autoFocus>
            Cancel
          </button>
        </div>
      </dialog>
    </section>
  );
}
