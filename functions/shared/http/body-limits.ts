/**
 * The largest body each kind of request may have; larger ones get 413 before parsing. A link or an edit is a URL
 * and a few short fields; fifty generous links fit in a batch's.
 */
export const MAX_BODY_BYTES = {
  link: 16 * 1024,
  patch: 16 * 1024,
  batch: 1024 * 1024,
  /** 100 codes, or a filter, with an edit's fields (issue 31). */
  bulk: 64 * 1024,
  /**
   * A file's text in JSON (issue 31). Lambda takes at most 6 MB a request, the event's own fields included, and the
   * API treats every body as binary (lib/api.ts, for the QR codes' PNG), so the body reaches the function in base64,
   * a third larger: 4 MiB arrives as 5.59 MB. At 5 MiB (6.99 MB) the invocation itself was refused, never our 413.
   */
  import: 4 * 1024 * 1024,
} as const;

/** For people: 16 KiB, 1 MiB. */
export const describeBytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`);
