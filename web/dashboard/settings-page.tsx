import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../clients/typescript/src/schema';
import { ANALYTICS_SWITCHES, type AnalyticsSwitch, type AnalyticsSwitches } from '../../functions/shared/domain/analytics/analytics-switches';
import { call, type Api, type Problem } from './api';
import { ProblemNote } from './ui';
import { useAllowed } from './workspace';

type Workspace = paths['/v2/workspace']['get']['responses'][200]['content']['application/json'];

/** Each switch as the page names it (the API's list, bundled: the page shows exactly the switches there are). */
const SWITCH_LABELS: Record<AnalyticsSwitch, string> = {
  country: 'Country',
  region: 'Region',
  city: 'City',
  referrer: 'Referring site',
  device: 'Device class',
  browser: 'Browser',
  os: 'Operating system',
  campaign: 'Campaign (utm_source, utm_medium, utm_campaign)',
};

/** The workspace's settings: what its stats record (issue 30). Shown to every role, changed by admins and owners. */
export function SettingsPage({ api }: { api: Api }) {
  const [workspace, setWorkspace] = useState<Workspace>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    void call(() => api.GET('/v2/workspace')).then((answer) => ('problem' in answer ? setProblem(answer.problem) : setWorkspace(answer.data)));
  }, [api]);
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Workspace settings</h1>
      <ProblemNote problem={problem} />
      {workspace && <AnalyticsSection api={api} saved={workspace.analytics} onSaved={setWorkspace} />}
    </section>
  );
}

function AnalyticsSection({ api, saved, onSaved }: { api: Api; saved: AnalyticsSwitches; onSaved: (workspace: Workspace) => void }) {
  const mayChange = useAllowed('PATCH /v2/workspace');
  const [switches, setSwitches] = useState<AnalyticsSwitches>(saved);
  const [problem, setProblem] = useState<Problem>();
  const [said, setSaid] = useState('');
  const save = async (event: Event) => {
    event.preventDefault();
    setSaid('');
    const answer = await call(() => api.PATCH('/v2/workspace', { body: { analytics: switches } }));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    onSaved(answer.data);
    setSaid('Saved. Visits from a few seconds on are recorded this way; what was recorded before stays.');
  };
  return (
    <section aria-labelledby="analytics-title">
      <h2 id="analytics-title">Analytics</h2>
      <p>
        What the stats record of each visit. A dimension switched off is not stored from the next visits on (within about
        5 seconds); clicks, bots and unique visitors are always counted.
      </p>
      {!mayChange && <p class="note">Only owners and admins change these settings.</p>}
      <form onSubmit={save}>
        <fieldset disabled={!mayChange}>
          <legend>Record</legend>
          {ANALYTICS_SWITCHES.map((name) => (
            <label key={name} class="check">
              <input type="checkbox" checked={switches[name]} onChange={(event) => setSwitches({ ...switches, [name]: event.currentTarget.checked })} /> {SWITCH_LABELS[name]}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={!mayChange}>
          Save analytics settings
        </button>
      </form>
      <ProblemNote problem={problem} />
      {said && (
        <p role="status" class="said">
          {said}
        </p>
      )}
    </section>
  );
}
