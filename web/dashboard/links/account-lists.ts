import { useEffect, useState } from 'preact/hooks';
import { call, type Api } from '../api';

/** The account's domains (active ones, for choosing) and tags, for the filters and the link form. */
export function useAccountLists(api: Api): { domains: string[]; tags: Array<{ tag: string; links: number }> } {
  const [domains, setDomains] = useState<string[]>([]);
  const [tags, setTags] = useState<Array<{ tag: string; links: number }>>([]);
  useEffect(() => {
    // A plan without custom domains answers 403: the page simply offers no domain choice.
    void call(() => api.GET('/v2/domains')).then((answer) => {
      if (!('problem' in answer)) setDomains(answer.data.domains.filter((domain) => domain.status === 'active').map((domain) => domain.domain));
    });
    void call(() => api.GET('/v2/tags')).then((answer) => {
      if (!('problem' in answer)) setTags(answer.data.tags);
    });
  }, [api]);
  return { domains, tags };
}
