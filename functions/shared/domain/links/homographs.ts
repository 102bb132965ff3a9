import { domainToUnicode } from 'node:url';

/**
 * Host names that imitate another name with look-alike letters: the classic IDN homograph attack
 * (https://аpple.com/ with a Cyrillic "а"). Browsers show such names in punycode, but a short link hides the
 * address until the visitor is there, so the service refuses them when they are created. The rule, per label
 * (the parts between dots, read in Unicode):
 *
 * 1. Latin letters mixed with letters of a script that has Latin look-alikes (Cyrillic, Greek, Armenian,
 *    Cherokee) in one label: refused. `pаypal` (Cyrillic а), `gοοgle` (Greek ο).
 * 2. A label of Latin letters holding a Latin-script character that imitates a plain one (dotless ı, Latin
 *    alpha ɑ, script g ɡ, small capitals): refused. `paypaı`, `ɡoogle`.
 * 3. A label written only with Cyrillic or Greek letters that all look like Latin ones, under an ASCII top-level
 *    domain: refused (a whole-script look-alike such as `аррӏе.com`). Such labels under their own script's
 *    domain (`.рф`, `.ελ`) are fine.
 *
 * Everything else passes: whole-script names (`münchen.de`, `пример.рф`, `例え.jp`), Latin with CJK, digits and
 * hyphens with anything. Mathematical and full-width letters never reach this check: the URL parser maps them
 * to ASCII first (IDNA's NFKC mapping).
 */
const LATIN = /\p{Script=Latin}/u;
const LOOKALIKE_SCRIPTS = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
/** Latin-script letters drawn like other Latin letters (a short list of the ones phishing kits use). */
const CONFUSABLE_LATIN = /[ıȷɑɡɢɩɪʏʀɴʟᴀᴄᴅᴇᴊᴋᴍᴏᴘᴛᴜᴠᴡᴢꞮ]/u;
/** Cyrillic and Greek letters that look like Latin ones in lower case (plus digits and hyphens, which any name may hold). */
const LATIN_LOOKALIKES_ONLY = /^[аеорсухіјѕԁһӏԛԝɡοαιυνκτρεχ0-9-]+$/u;

function labelIsHomograph(label: string, asciiTopLevel: boolean): boolean {
  const hasLatin = LATIN.test(label);
  if (hasLatin && LOOKALIKE_SCRIPTS.test(label)) return true;
  if (hasLatin && CONFUSABLE_LATIN.test(label)) return true;
  return asciiTopLevel && !hasLatin && LOOKALIKE_SCRIPTS.test(label) && LATIN_LOOKALIKES_ONLY.test(label);
}

/** Whether a host name (as the URL parser gives it, punycode included) imitates another with look-alike letters. */
export function isHomographHost(hostname: string): boolean {
  if (!hostname.split('.').some((label) => label.startsWith('xn--'))) return false;
  const labels = domainToUnicode(hostname).toLowerCase().split('.');
  const topLevel = labels[labels.length - 1] ?? '';
  const asciiTopLevel = /^\p{ASCII}*$/u.test(topLevel);
  return labels.some((label) => labelIsHomograph(label, asciiTopLevel));
}
