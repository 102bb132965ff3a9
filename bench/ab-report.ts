import { median, round } from './support';

/** What bench:ab keeps of one run: its throughput and its median latency. */
export interface Sample {
  requestsPerSecond: number;
  p50: number;
}

/** One path's figures for one side: every counted round's samples and their medians; null where the side lacks the path. */
export interface SideSummary {
  samples: Sample[];
  requestsPerSecond: number;
  p50: number;
}

/** A path under load is compared by its throughput; one measured a request at a time (creation), by its p50. */
export type Measure = 'throughput' | 'latency';

export interface PathSummary {
  path: string;
  measure: Measure;
  old: SideSummary | null;
  new: SideSummary | null;
  /**
   * How much faster the new side is, above 1 when it is: median requests per second new/old, or for latency the
   * old median p50 over the new one. Null when either side lacks the path.
   */
  ratio: number | null;
  /** For a path under load: the new side's requests per second over those of the first path's (the hot plain link). */
  ofFirst: number | null;
}

function summariseSide(samples: readonly Sample[] | undefined): SideSummary | null {
  if (!samples || samples.length === 0) return null;
  return {
    samples: [...samples],
    requestsPerSecond: round(median(samples.map((sample) => sample.requestsPerSecond)), 1),
    p50: median(samples.map((sample) => sample.p50)),
  };
}

function speedRatio(measure: Measure, oldSide: SideSummary | null, newSide: SideSummary | null): number | null {
  if (!oldSide || !newSide) return null;
  const [faster, slower] = measure === 'throughput' ? [newSide.requestsPerSecond, oldSide.requestsPerSecond] : [oldSide.p50, newSide.p50];
  return slower > 0 ? round(faster / slower) : null;
}

/** Medians per path and side, and the ratio new/old, in the order the paths were measured. */
export function summarise(
  paths: ReadonlyArray<{ path: string; measure: Measure }>,
  old: ReadonlyMap<string, readonly Sample[]>,
  current: ReadonlyMap<string, readonly Sample[]>,
): PathSummary[] {
  const first = summariseSide(current.get(paths[0]?.path ?? ''));
  return paths.map(({ path, measure }) => {
    const oldSide = summariseSide(old.get(path));
    const newSide = summariseSide(current.get(path));
    const ofFirst = measure === 'throughput' && newSide && first && first.requestsPerSecond > 0 ? round(newSide.requestsPerSecond / first.requestsPerSecond) : null;
    return { path, measure, old: oldSide, new: newSide, ratio: speedRatio(measure, oldSide, newSide), ofFirst };
  });
}

function side(summary: SideSummary | null, measure: Measure): string {
  if (!summary) return 'n/a';
  return measure === 'throughput' ? `${Math.round(summary.requestsPerSecond).toLocaleString('en-US')} req/s, p50 ${summary.p50} ms` : `p50 ${summary.p50} ms`;
}

/** The Markdown table bench:ab prints (docs/measurements.md holds copies of it). */
export function reportTable(rows: readonly PathSummary[], oldName: string, newName: string): string {
  const first = rows[0]?.path ?? 'the first path';
  const figure = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));
  const lines = [`| path | ${oldName} | ${newName} | ratio new/old (above 1: faster) | new, to the ${first} |`, '|---|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${row.path} | ${side(row.old, row.measure)} | ${side(row.new, row.measure)} | ${figure(row.ratio)} | ${figure(row.ofFirst)} |`);
  return lines.join('\n');
}
