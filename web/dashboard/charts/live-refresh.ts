/** How often the live hour is read again while the page is visible (issue 30); apart from the chart so tests read it. */
export const LIVE_REFRESH_MS = 10_000;
