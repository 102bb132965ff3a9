import { useState } from 'preact/hooks';
import { call, type Api, type Problem } from './api';
import { ProblemNote } from './ui';

/**
 * The page an invitation's mail links to (`/app/invitations/<token>`): accepting it joins the workspace as the
 * person signed in here (the API refuses another email than the invited one). The token stays in this address:
 * the page sends no referrer and fetches from no other host.
 */
export function InvitationPage({ api, token, email, onAccepted }: { api: Api; token: string; email: string | undefined; onAccepted: (workspaceId: string) => Promise<void> }) {
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  const accept = async () => {
    setBusy(true);
    const answer = await call(() => api.POST('/v2/invitations/{id}/accept', { params: { path: { id: token } } }));
    setBusy(false);
    if ('problem' in answer) return setProblem(answer.problem);
    await onAccepted(answer.data.workspaceId);
  };
  return (
    <section aria-labelledby="invitation-title">
      <h1 id="invitation-title">Invitation</h1>
      <p>You were invited to a workspace. Accepting joins it as {email ?? 'the person signed in here'}.</p>
      <ProblemNote problem={problem} />
      <button type="button" disabled={busy} onClick={() => void accept()}>
        Accept the invitation
      </button>
    </section>
  );
}
