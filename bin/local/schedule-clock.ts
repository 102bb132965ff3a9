import { EnvNames } from '../../functions/shared/config';
import type { FunctionSpec, ScheduleSpec } from './template';

/** A scaled health schedule still leaves the worker a breath between runs. */
export const MIN_HEALTH_SCHEDULE_MS = 250;

export interface ScheduleClock {
  /** LOCAL_SCHEDULE_EVERY_MS: every schedule this often instead of its rate (the tests do not wait minutes). */
  everyMs?: number;
  /** LOCAL_HEALTH_TIME_SCALE: link health's day shortened, and its schedule with it. */
  healthScale: number;
}

/**
 * How often a local run fires one of the template's rate rules. Link health's (the rule whose function consumes the
 * health queue) runs on its own clock, so its day and its schedule shrink together; every other on
 * LOCAL_SCHEDULE_EVERY_MS, else the rule's own rate.
 */
export function localScheduleEveryMs(schedule: ScheduleSpec, target: Pick<FunctionSpec, 'environment'>, clock: ScheduleClock): number {
  if (clock.healthScale < 1 && target.environment[EnvNames.healthQueueUrl] !== undefined) return Math.max(MIN_HEALTH_SCHEDULE_MS, Math.round(schedule.everyMs * clock.healthScale));
  return clock.everyMs ?? schedule.everyMs;
}
