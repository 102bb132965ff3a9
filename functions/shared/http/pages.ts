import { createHash } from 'node:crypto';
import { PASSWORD_MAX_UTF16_UNITS } from '../domain/links/password';
import { queryString, type QueryPairs } from '../domain/destinations/destination-query';

/** The HTML pages visitors see. Every dynamic value goes through `escapeHtml`; no script runs on any page. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
:root{color-scheme:light dark;--accent:#2563eb}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f5f6f8;color:#1f2430}
@media (prefers-color-scheme:dark){body{background:#14161b;color:#e8eaef}main{background:#1d2027!important;box-shadow:none!important}input{background:#14161b;color:inherit}}
main{width:min(26rem,calc(100vw - 2rem));padding:2rem;border-radius:14px;background:#fff;box-shadow:0 10px 30px rgba(20,24,40,.08)}
h1{margin:0 0 .5rem;font-size:1.35rem}
p{margin:.25rem 0 1rem;color:inherit;opacity:.85}
.code{font-family:ui-monospace,Menlo,monospace;font-weight:600}
label{display:block;font-weight:600;margin-bottom:.35rem}
input{width:100%;padding:.7rem .8rem;border:1px solid #c9ced8;border-radius:8px;font:inherit}
input:focus{outline:2px solid var(--accent);outline-offset:1px}
button{margin-top:1rem;width:100%;padding:.75rem;border:0;border-radius:8px;background:var(--accent);color:#fff;font:inherit;font-weight:600;cursor:pointer}
.error{margin:0 0 1rem;padding:.6rem .8rem;border-radius:8px;background:#fdecec;color:#9b1c1c}
.status{font-size:2.5rem;font-weight:700;margin:0;opacity:.35}`;

/** Pages allow exactly this stylesheet and nothing else: no scripts, no frames, no plugins. */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self' data:",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  // No form-action: browsers apply it to the redirect that follows the password form, which leaves the site.
].join('; ');

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

/**
 * Where the form posts: the link itself with the query the visitor came with, so that what reads it (a forwarded
 * query, a smart link's query rules, the campaign counted) reads the same after the password as without one.
 */
function formAction(code: string, query: QueryPairs): string {
  const search = queryString(query);
  return `/${encodeURIComponent(code)}${search ? `?${search}` : ''}`;
}

export function passwordPage(code: string, csrfToken: string, error?: string, query: QueryPairs = []): string {
  return layout(
    'Password required',
    `<h1>This link is protected</h1>
<p>Enter the password to continue to <span class="code">/${escapeHtml(code)}</span>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(formAction(code, query))}">
<input type="hidden" name="csrf" value="${escapeHtml(csrfToken)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus maxlength="${PASSWORD_MAX_UTF16_UNITS}">
<button type="submit">Continue</button>
</form>`,
  );
}

export function messagePage(status: number, title: string, message: string): string {
  return layout(title, `<p class="status">${status}</p>\n<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

/** What link-preview bots get for a protected link: a card that names nothing behind it. */
export function previewPage(code: string): string {
  return layout(
    'Shared link',
    `<h1>Shared link</h1>\n<p><span class="code">/${escapeHtml(code)}</span> is a protected or limited link. Open it in a browser to continue.</p>`,
  ).replace('<meta name="robots" content="noindex">', '<meta name="robots" content="noindex">\n<meta property="og:title" content="Shared link">\n<meta property="og:description" content="Open this link in a browser to continue.">');
}
