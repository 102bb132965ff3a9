/** The windows of days a page's stats can show (the API takes 1–90; these are the ones offered). */
export const WINDOWS = [7, 30, 90] as const;
export type StatsWindow = (typeof WINDOWS)[number];

/** The "Window" field of a stats page: the workspace's overview and each link's clicks. */
export function WindowSelect({ id, days, onChange }: { id: string; days: StatsWindow; onChange: (days: StatsWindow) => void }) {
  return (
    <div class="field">
      <label for={id}>Window</label>
      <select id={id} value={days} onChange={(event) => onChange(Number(event.currentTarget.value) as StatsWindow)}>
        {WINDOWS.map((window) => (
          <option key={window} value={window}>
            Last {window} days
          </option>
        ))}
      </select>
    </div>
  );
}
