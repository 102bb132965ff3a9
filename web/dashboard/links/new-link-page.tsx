import { call, type Api } from '../api';
import { linkHref, navigate } from '../router';
import { useAccountLists } from './account-lists';
import { creationOf, emptyDraft } from './link-draft';
import { LinkForm } from './link-form';

export function NewLinkPage({ api }: { api: Api }) {
  const { domains } = useAccountLists(api);
  return (
    <section aria-labelledby="new-title">
      <h1 id="new-title">New link</h1>
      <LinkForm
        mode="create"
        initial={emptyDraft()}
        domains={domains}
        submitLabel="Create link"
        onSubmit={async (draft) => {
          // Fields the API will refuse (a word where a number belongs) are sent as typed, for its message.
          const answer = await call(() => api.POST('/v2/shorten', { body: creationOf(draft) as never }));
          if ('problem' in answer) return answer.problem;
          const query = new URLSearchParams({ created: '1', ...(draft.domain ? { domain: draft.domain } : {}) });
          navigate(`${linkHref(answer.data.shortCode)}?${query}`);
          return undefined;
        }}
      />
    </section>
  );
}
