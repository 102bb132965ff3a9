import { call, type Api } from '../api';
import { linkHref, navigate } from '../router';
import { useAccountLists } from './account-lists';
import { creationOf, emptyDraft, type LinkDraft } from './link-draft';
import { forgetDraft, keepDraft, keptDraft } from '../session';
import { LinkForm } from './link-form';

const FORM = 'new-link';

export function NewLinkPage({ api }: { api: Api }) {
  const { domains } = useAccountLists(api);
  const initial = { ...emptyDraft(), ...keptDraft<Partial<LinkDraft>>(FORM) };
  return (
    <section aria-labelledby="new-title">
      <h1 id="new-title">New link</h1>
      <LinkForm
        mode="create"
        initial={initial}
        onChange={(draft) => keepDraft(FORM, { ...draft, password: '' })}
        domains={domains}
        submitLabel="Create link"
        onSubmit={async (draft) => {
          // Fields the API will refuse (a word where a number belongs) are sent as typed, for its message.
          const answer = await call(() => api.POST('/v2/shorten', { body: creationOf(draft) as never }));
          if ('problem' in answer) return answer.problem;
          forgetDraft(FORM);
          const query = new URLSearchParams({ created: '1', ...(draft.domain ? { domain: draft.domain } : {}) });
          navigate(`${linkHref(answer.data.shortCode)}?${query}`);
          return undefined;
        }}
      />
    </section>
  );
}
