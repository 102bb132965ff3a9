import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../../clients/typescript/src/schema';
import { IMPORT_SOURCES, type ImportSource } from '../../../functions/shared/domain/imports/import-record';
import { describeBytes, MAX_BODY_BYTES } from '../../../functions/shared/http/body-limits';
import { csvText } from '../../../functions/shared/http/csv';
import { call, type Api, type Problem } from '../api';
import { hrefOf } from '../router';
import { formatDateTime, formatNumber, ProblemNote, saveFile, useFocusOnAppear } from '../ui';
import { SOURCE_FILES } from './import-sources';

type ImportBody = paths['/v2/imports']['post']['requestBody']['content']['application/json'];
type Preview = paths['/v2/imports/preview']['post']['responses'][200]['content']['application/json'];
type Summary = paths['/v2/imports/{id}']['get']['responses'][200]['content']['application/json'];
type OnConflict = NonNullable<ImportBody['onConflict']>;

/** How often a running import is read again. */
const POLL_MS = 1_000;

/** The results file: each failed, renamed or skipped row with its reason, every cell safe to open in a spreadsheet. */
function resultsFile(summary: Summary): Blob {
  const columns = ['row', 'outcome', 'code', 'domain', 'reason'];
  return new Blob([csvText(columns, summary.results.map((result) => [result.row, result.outcome, result.code ?? '', result.domain ?? '', result.reason ?? '']))], { type: 'text/csv' });
}

/**
 * Moving links in from another shortener (issue 31): the source and its file, a preview of the first rows as the
 * import will make them (POST /v2/imports/preview: the parsers and mapping rules run on the server, where they use
 * Node's crypto and address checks), then the import itself, its progress and its results file.
 */
export function ImportsPage({ api }: { api: Api }) {
  const [source, setSource] = useState<ImportSource>('bitly');
  const [onConflict, setOnConflict] = useState<OnConflict>('skip');
  const [file, setFile] = useState<File>();
  const [content, setContent] = useState<string>();
  const [preview, setPreview] = useState<Preview>();
  const [summary, setSummary] = useState<Summary>();
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  const previewHeading = useFocusOnAppear<HTMLHeadingElement>(preview !== undefined && summary === undefined);
  const progressHeading = useFocusOnAppear<HTMLHeadingElement>(summary !== undefined);

  // A running import is followed until it is done; leaving the page stops following it (it goes on regardless).
  useEffect(() => {
    if (summary?.status !== 'running') return;
    const timer = setTimeout(async () => {
      const answer = await call(() => api.GET('/v2/imports/{id}', { params: { path: { id: summary.id } } }));
      if ('problem' in answer) setProblem(answer.problem);
      else setSummary(answer.data);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [api, summary]);

  const body = (): ImportBody => ({ source, content: content ?? '', onConflict });
  const refuse = (message: string) => setProblem({ status: 0, message });

  const showPreview = async (event: Event) => {
    event.preventDefault();
    if (!file) return refuse('Choose the exported file first.');
    // The file travels as the body's text: larger than the API takes, it is refused here rather than sent.
    if (file.size > MAX_BODY_BYTES.import) return refuse(`The file is larger than ${describeBytes(MAX_BODY_BYTES.import)}: split it and import each part.`);
    setBusy(true);
    setProblem(undefined);
    const text = await file.text();
    const answer = await call(() => api.POST('/v2/imports/preview', { body: { source, content: text, onConflict } }));
    setBusy(false);
    if ('problem' in answer) return setProblem(answer.problem);
    setContent(text);
    setPreview(answer.data);
  };

  const start = async () => {
    setBusy(true);
    setProblem(undefined);
    const started = await call(() => api.POST('/v2/imports', { body: body() }));
    if ('problem' in started) {
      setBusy(false);
      return setProblem(started.problem);
    }
    const first = await call(() => api.GET('/v2/imports/{id}', { params: { path: { id: started.data.id } } }));
    setBusy(false);
    if ('problem' in first) return setProblem(first.problem);
    setSummary(first.data);
  };

  const startOver = () => {
    setPreview(undefined);
    setSummary(undefined);
    setContent(undefined);
    setProblem(undefined);
  };

  const settled = summary ? summary.created + summary.renamed + summary.skipped + summary.failed + summary.existing : 0;
  return (
    <section aria-labelledby="imports-title">
      <h1 id="imports-title">Move links in from another shortener</h1>
      <p>
        Each link keeps its back-half, destination, title, tags, creation time, expiry and its clicks there, shown as "before import".
        Importing the same file again makes nothing new.{' '}
        <a href={hrefOf('/import')}>Create links from a list of URLs instead</a>
      </p>
      {preview === undefined && (
        <form onSubmit={showPreview}>
          <fieldset>
            <legend>1. Where the links are now</legend>
            <div class="field">
              <label for="import-source">Source</label>
              <select id="import-source" value={source} onChange={(event) => setSource(event.currentTarget.value as ImportSource)}>
                {IMPORT_SOURCES.map((name) => (
                  <option key={name} value={name}>
                    {SOURCE_FILES[name]}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="import-file">Exported file</label>
              <input id="import-file" type="file" accept=".csv,.json,text/csv,application/json" onChange={(event) => setFile(event.currentTarget.files?.[0])} />
            </div>
          </fieldset>
          <fieldset>
            <legend>When a back-half is taken here, or not allowed</legend>
            {(['skip', 'rename'] as const).map((choice) => (
              <label key={choice} class="check">
                <input type="radio" name="on-conflict" value={choice} checked={onConflict === choice} onChange={() => setOnConflict(choice)} />{' '}
                {choice === 'skip' ? 'Skip the link and say why' : 'Make it under a new code and say which'}
              </label>
            ))}
          </fieldset>
          <ProblemNote problem={problem} />
          <button type="submit" disabled={busy}>
            {busy ? 'Reading the file…' : 'Preview'}
          </button>
        </form>
      )}
      {preview !== undefined && summary === undefined && (
        <section aria-labelledby="preview-title">
          <h2 id="preview-title" tabIndex={-1} ref={previewHeading}>
            2. The first {preview.rows.length} of {formatNumber(preview.read)} rows, as they will be imported
          </h2>
          <p>
            From {file?.name}, read as {SOURCE_FILES[preview.source]}. A back-half already taken here shows only when the import runs.
          </p>
          <div class="table-wrap">
            <table class="import-preview">
              <caption class="visually-hidden">Preview of the first rows</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Back-half</th>
                  <th scope="col">Destination</th>
                  <th scope="col">Title</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Created</th>
                  <th scope="col">Clicks before import</th>
                  <th scope="col">Notes</th>
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row) =>
                  row.outcome === 'failed' ? (
                    <tr key={row.row} class="failed">
                      <th scope="row">{row.row}</th>
                      <td colSpan={6}>Not imported</td>
                      <td>{row.reason}</td>
                    </tr>
                  ) : (
                    <tr key={row.row}>
                      <th scope="row">{row.row}</th>
                      <td>{row.slug === undefined ? 'a new code' : `${row.domain ? `${row.domain}/` : ''}${row.slug}`}</td>
                      <td class="url">{row.url}</td>
                      <td>{row.title ?? ''}</td>
                      <td>{row.tags?.join(', ') ?? ''}</td>
                      <td>{formatDateTime(row.createdAt)}</td>
                      <td>{formatNumber(row.importedClicks)}</td>
                      <td>{row.notes.join('; ')}</td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
          <ProblemNote problem={problem} />
          <p>
            <button type="button" onClick={start} disabled={busy}>
              {busy ? 'Starting…' : `Import ${formatNumber(preview.read)} rows`}
            </button>{' '}
            <button type="button" class="quiet" onClick={startOver} disabled={busy}>
              Choose another file
            </button>
          </p>
        </section>
      )}
      {summary !== undefined && (
        <section aria-labelledby="import-progress-title" class="panel">
          <h2 id="import-progress-title" tabIndex={-1} ref={progressHeading}>
            3. {summary.status === 'running' ? 'Importing' : 'Imported'}
          </h2>
          <label for="import-job-progress">
            {formatNumber(settled)} of {formatNumber(summary.read)} rows settled
          </label>
          <progress id="import-job-progress" max={Math.max(1, summary.read)} value={settled} />
          <p role="status">
            {summary.status === 'running' ? 'Running: ' : 'Done: '}
            {formatNumber(summary.created)} created, {formatNumber(summary.renamed)} renamed, {formatNumber(summary.skipped)} skipped, {formatNumber(summary.failed)} failed
            {summary.existing > 0 ? `, ${formatNumber(summary.existing)} imported before` : ''}.
          </p>
          <ProblemNote problem={problem} />
          {summary.status !== 'running' && (
            <p>
              <button type="button" onClick={() => saveFile(resultsFile(summary), `${(file?.name ?? 'import').replace(/\.(csv|json)$/i, '')}-import-results.csv`)}>
                Download the results
              </button>{' '}
              <a href={hrefOf('/')}>See your links</a>{' '}
              <button type="button" class="quiet" onClick={startOver}>
                Import another file
              </button>
            </p>
          )}
        </section>
      )}
    </section>
  );
}
