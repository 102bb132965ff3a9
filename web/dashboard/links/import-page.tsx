import { useState } from 'preact/hooks';
import type { Api } from '../api';
import { importRows, resultRows } from '../../../clients/csv-import/import-links';
import { ImportFileError, LINK_COLUMNS, linkRequestOf, parseLinkRows } from '../../../clients/csv-import/link-rows';
import { csvText } from '../../../functions/shared/http/csv';
import { hrefOf } from '../router';
import { saveFile } from '../ui';

type Outcome = { total: number; done: number; failed: number; stoppedBy?: string; results?: Blob; fileName?: string };

/** Bulk creation from a CSV file, with the command line's rules (clients/csv-import), a progress bar and the results. */
export function ImportPage({ api }: { api: Api }) {
  const [file, setFile] = useState<File>();
  const [problem, setProblem] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>();
  const running = outcome !== undefined && outcome.results === undefined && outcome.stoppedBy === undefined;

  const start = async (event: Event) => {
    event.preventDefault();
    if (!file) return setProblem('Choose a CSV file first.');
    setProblem(undefined);
    let parsed;
    try {
      parsed = parseLinkRows(await file.text(), file.name);
    } catch (error) {
      return setProblem(error instanceof ImportFileError ? error.message : `${file.name} could not be read.`);
    }
    const total = parsed.rows.length;
    let done = 0;
    let failed = 0;
    setOutcome({ total, done, failed });
    const { results, stoppedBy } = await importRows(api, parsed.rows, linkRequestOf, (rows, failedRows) => {
      done += rows;
      failed += failedRows;
      setOutcome({ total, done, failed });
    });
    const output = resultRows(parsed.columns, parsed.rows, results);
    const failedRows = results.filter((result) => result.error !== undefined).length;
    setOutcome({
      total,
      done,
      failed: failedRows,
      ...(stoppedBy ? { stoppedBy } : {}),
      results: new Blob([csvText(output.columns, output.rows.map((row) => output.columns.map((column) => row[column] ?? '')))], { type: 'text/csv' }),
      fileName: file.name.replace(/(\.csv)?$/i, '-results.csv'),
    });
  };

  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title">Import links from a CSV file</h1>
      <p>
        A header row names the columns: <code>url</code> at least, and any of {LINK_COLUMNS.slice(1).map((column, index) => <span key={column}>{index > 0 ? ', ' : ''}<code>{column}</code></span>)}.
        Rules, variants and utm cells hold JSON; tags are separated by commas or spaces. Running the same file again within 24 hours makes no link twice.
      </p>
      <form onSubmit={start}>
        <div class="field">
          <label for="csv-file">CSV file</label>
          <input id="csv-file" type="file" accept=".csv,text/csv" onChange={(event) => setFile(event.currentTarget.files?.[0])} />
        </div>
        {problem && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={running}>
          {running ? 'Importing…' : 'Import'}
        </button>
      </form>
      {outcome && (
        <section aria-labelledby="progress-title" class="panel">
          <h2 id="progress-title">Progress</h2>
          <label for="import-progress">
            {outcome.done} of {outcome.total} rows, {outcome.failed} failed
          </label>
          <progress id="import-progress" max={Math.max(1, outcome.total)} value={outcome.done} />
          {outcome.stoppedBy && (
            <p class="problem" role="alert">
              Import stopped: {outcome.stoppedBy}
            </p>
          )}
          {outcome.results && (
            <p role="status">
              Done: {outcome.total - outcome.failed} links, {outcome.failed} failed.{' '}
              <button type="button" onClick={() => outcome.results && saveFile(outcome.results, outcome.fileName ?? 'results.csv')}>
                Download the results
              </button>{' '}
              <a href={hrefOf('/links')}>See your links</a>
            </p>
          )}
        </section>
      )}
    </section>
  );
}
