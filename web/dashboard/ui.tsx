import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Problem } from './api';

/** A refusal in the API's words, announced to screen readers, with the upgrade link when the plan is the reason. */
export function ProblemNote({ problem }: { problem: Problem | undefined }) {
  if (!problem) return null;
  return (
    <div class="problem" role="alert">
      <p>{problem.message}</p>
      {problem.retryAfter !== undefined && <p>Try again in {problem.retryAfter} seconds.</p>}
      {problem.upgradeUrl && (
        <p>
          <a href={problem.upgradeUrl} rel="noopener noreferrer" target="_blank">
            Upgrade your plan
          </a>
        </p>
      )}
    </div>
  );
}

/** Copies `text`; the outcome is announced (a status region), since the button itself does not change. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid('Copy failed: select the text and copy it');
    }
  };
  return (
    <span class="copy">
      <button type="button" class="quiet small" onClick={copy} aria-label={label}>
        Copy
      </button>
      <span role="status" class="said">
        {said}
      </span>
    </span>
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export const formatDateTime = (iso: string | undefined) => (iso ? dateTime.format(new Date(iso)) : '');
export const formatDate = (isoDate: string) => dateOnly.format(new Date(`${isoDate}T00:00:00Z`));
export const formatNumber = (value: number) => value.toLocaleString();

/** Saves `blob` as `fileName` through a link the page clicks (a blob: URL: nothing leaves the browser). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name a Content-Disposition header gives, or `fallback`. */
export function fileNameOf(response: Response, fallback: string): string {
  return /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;
}

/**
 * The element takes the focus when `shown` turns true, so keyboard and screen-reader users land on what appeared.
 * A layout effect, not an effect: the focus moves in the same task as the element appears, never a frame later, so
 * nothing (a key press, a test reading the focus) sees the page in between with the focus fallen to the body.
 */
export function useFocusOnAppear<T extends HTMLElement>(shown: boolean) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}
