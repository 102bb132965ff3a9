import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Problem } from '../api';
import { ProblemNote } from '../ui';
import { emptyRule, emptyVariant, EXPIRY_UNITS, UTM_FIELDS, type ExpiryUnit, type LinkDraft, type RuleDraft, type VariantDraft } from './link-draft';

interface LinkFormProps {
  mode: 'create' | 'edit';
  initial: LinkDraft;
  /** Active custom domains the link may go on (creation only). */
  domains: readonly string[];
  /** Shown under an edit's password and expiry fields: what they are now. */
  current?: { passwordProtected: boolean; expiresAt?: string };
  submitLabel: string;
  onSubmit: (draft: LinkDraft) => Promise<Problem | undefined>;
  /** Told of every change (the new-link page keeps the draft for the tab). */
  onChange?: (draft: LinkDraft) => void;
  children?: ComponentChildren;
}

function Field(props: { id: string; label: string; help?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.help && (
        <p class="help" id={`${props.id}-help`}>
          {props.help}
        </p>
      )}
    </div>
  );
}

/** A rule's conditions as the form asks for them: lists as comma- or space-separated words, times as local ones. */
const RULE_WORDS: ReadonlyArray<[keyof RuleDraft, string]> = [
  ['country', 'Countries (DE, US…)'],
  ['device', 'Devices (mobile, tablet, desktop)'],
  ['os', 'Systems (ios, android…)'],
  ['language', 'Languages (de, pt-BR…)'],
  ['query', 'Query (name=value, flag)'],
];
const RULE_TIMES: ReadonlyArray<[keyof RuleDraft, string]> = [
  ['after', 'From'],
  ['before', 'Until'],
];

/** Creation and edit of one link: every option the API has. What was typed stays after a refusal. */
export function LinkForm(props: LinkFormProps) {
  const [draft, setDraft] = useState(props.initial);
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<LinkDraft>) => setDraft((previous) => ({ ...previous, ...change }));
  useEffect(() => props.onChange?.(draft), [draft]);
  const text = (field: 'url' | 'alias' | 'password' | 'expiresAmount' | 'maxClicks' | 'tags' | 'expiredUrl') => ({
    value: draft[field],
    onInput: (event: { currentTarget: HTMLInputElement }) => set({ [field]: event.currentTarget.value }),
  });
  const setRule = (index: number, change: Partial<RuleDraft>) => set({ rules: draft.rules.map((rule, at) => (at === index ? { ...rule, ...change } : rule)) });
  const setVariant = (index: number, change: Partial<VariantDraft>) =>
    set({ variants: draft.variants.map((variant, at) => (at === index ? { ...variant, ...change } : variant)) });
  const creating = props.mode === 'create';

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const refused = await props.onSubmit(draft);
    setBusy(false);
    setProblem(refused);
  };

  return (
    <form class="link-form" onSubmit={submit} noValidate>
      <Field id="url" label="Destination URL">
        <input id="url" type="url" required={creating} inputMode="url" autoComplete="off" {...text('url')} />
      </Field>
      {creating && (
        <Field id="alias" label="Alias (optional)" help="3–50 letters, digits or hyphens; the short code when set.">
          <input id="alias" autoComplete="off" aria-describedby="alias-help" {...text('alias')} />
        </Field>
      )}
      {creating && props.domains.length > 0 && (
        <Field id="domain" label="Domain">
          <select id="domain" value={draft.domain} onChange={(event) => set({ domain: event.currentTarget.value })}>
            <option value="">Your default</option>
            {props.domains.map((domain) => (
              <option key={domain} value={domain}>
                {domain}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field id="tags" label="Tags" help="Up to 10, separated by commas or spaces.">
        <input id="tags" autoComplete="off" aria-describedby="tags-help" {...text('tags')} />
      </Field>
      <fieldset>
        <legend>Limits</legend>
        <Field id="password" label={creating ? 'Password (optional)' : 'New password'} help={!creating && props.current?.passwordProtected ? 'The link has a password now; leave empty to keep it.' : undefined}>
          <input id="password" type="password" autoComplete="new-password" disabled={draft.removePassword} aria-describedby={!creating && props.current?.passwordProtected ? 'password-help' : undefined} {...text('password')} />
        </Field>
        {!creating && props.current?.passwordProtected && (
          <label class="check">
            <input type="checkbox" checked={draft.removePassword} onChange={(event) => set({ removePassword: event.currentTarget.checked })} /> Remove the password
          </label>
        )}
        <div class="inline">
          <Field id="expires-amount" label="Expires in" help={!creating && props.current?.expiresAt ? `Now expires ${new Date(props.current.expiresAt).toLocaleString()}; leave empty to keep.` : undefined}>
            <input id="expires-amount" inputMode="numeric" autoComplete="off" disabled={draft.removeExpiry} aria-describedby={!creating && props.current?.expiresAt ? 'expires-amount-help' : undefined} {...text('expiresAmount')} />
          </Field>
          <Field id="expires-unit" label="Unit">
            <select id="expires-unit" value={draft.expiresUnit} onChange={(event) => set({ expiresUnit: event.currentTarget.value as ExpiryUnit })}>
              {Object.keys(EXPIRY_UNITS).map((unit) => (
                <option key={unit} value={unit}>
                  {unit}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {!creating && props.current?.expiresAt && (
          <label class="check">
            <input type="checkbox" checked={draft.removeExpiry} onChange={(event) => set({ removeExpiry: event.currentTarget.checked })} /> Never expire
          </label>
        )}
        <Field id="max-clicks" label="Maximum clicks">
          <input id="max-clicks" inputMode="numeric" autoComplete="off" {...text('maxClicks')} />
        </Field>
        <Field id="expired-url" label="After expiry, send visitors to" help="Used when the link expires, is used up or is deleted.">
          <input id="expired-url" type="url" inputMode="url" autoComplete="off" aria-describedby="expired-url-help" {...text('expiredUrl')} />
        </Field>
      </fieldset>
      <fieldset>
        <legend>Campaign</legend>
        <label class="check">
          <input type="checkbox" checked={draft.forwardQuery} onChange={(event) => set({ forwardQuery: event.currentTarget.checked })} /> Pass the visitor's query string on to the destination
        </label>
        <div class="grid">
          {UTM_FIELDS.map((field) => (
            <Field key={field} id={`utm-${field}`} label={`utm_${field}`}>
              <input id={`utm-${field}`} autoComplete="off" value={draft.utm[field]} onInput={(event) => set({ utm: { ...draft.utm, [field]: event.currentTarget.value } })} />
            </Field>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Rules: send matching visitors elsewhere (first match wins)</legend>
        {draft.rules.map((rule, index) => (
          <div class="rule" key={index} role="group" aria-label={`Rule ${index + 1}`}>
            <Field id={`rule-${index}-url`} label={`Rule ${index + 1} destination`}>
              <input id={`rule-${index}-url`} type="url" autoComplete="off" value={rule.url} onInput={(event) => setRule(index, { url: event.currentTarget.value })} />
            </Field>
            <div class="grid">
              {RULE_WORDS.map(([field, label]) => (
                <Field key={field} id={`rule-${index}-${field}`} label={label}>
                  <input id={`rule-${index}-${field}`} autoComplete="off" value={rule[field]} onInput={(event) => setRule(index, { [field]: event.currentTarget.value })} />
                </Field>
              ))}
              {RULE_TIMES.map(([field, label]) => (
                <Field key={field} id={`rule-${index}-${field}`} label={label}>
                  <input id={`rule-${index}-${field}`} type="datetime-local" value={rule[field]} onInput={(event) => setRule(index, { [field]: event.currentTarget.value })} />
                </Field>
              ))}
            </div>
            <button type="button" class="quiet small" onClick={() => set({ rules: draft.rules.filter((_, at) => at !== index) })}>
              Remove rule {index + 1}
            </button>
          </div>
        ))}
        <button type="button" class="quiet" onClick={() => set({ rules: [...draft.rules, emptyRule()] })}>
          Add a rule
        </button>
      </fieldset>
      <fieldset>
        <legend>Variants: split the other visitors by weight (must add up to 100)</legend>
        {draft.variants.map((variant, index) => (
          <div class="inline" key={index} role="group" aria-label={`Variant ${index + 1}`}>
            <Field id={`variant-${index}-url`} label={`Variant ${index + 1} destination`}>
              <input id={`variant-${index}-url`} type="url" autoComplete="off" value={variant.url} onInput={(event) => setVariant(index, { url: event.currentTarget.value })} />
            </Field>
            <Field id={`variant-${index}-weight`} label="Weight">
              <input id={`variant-${index}-weight`} inputMode="numeric" autoComplete="off" value={variant.weight} onInput={(event) => setVariant(index, { weight: event.currentTarget.value })} />
            </Field>
            <button type="button" class="quiet small" onClick={() => set({ variants: draft.variants.filter((_, at) => at !== index) })}>
              Remove variant {index + 1}
            </button>
          </div>
        ))}
        <button type="button" class="quiet" onClick={() => set({ variants: [...draft.variants, emptyVariant()] })}>
          Add a variant
        </button>
      </fieldset>
      <ProblemNote problem={problem} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : props.submitLabel}
        </button>
        {props.children}
      </div>
    </form>
  );
}
