import { calendarMonth, fixedWindow, secondsUntil } from '../../../../functions/shared/domain/limits/usage-windows';

describe('usage windows', () => {
  it('split time into fixed minute windows', () => {
    const at = Date.parse('2026-11-22T10:00:59.999Z');
    const window = fixedWindow(at, 60);
    expect(window.resetsAt).toBe(Date.parse('2026-11-22T10:01:00.000Z') / 1000);
    expect(fixedWindow(at + 1, 60).id).not.toBe(window.id);
    expect(fixedWindow(at - 59_000, 60).id).toBe(window.id);
  });

  it('wait at least one second', () => {
    expect(secondsUntil(100, 99_999)).toBe(1);
    expect(secondsUntil(160, 100_000)).toBe(60);
  });

  it('reset quotas on the first day of the next UTC month, year boundaries included', () => {
    expect(calendarMonth(Date.parse('2026-11-30T23:59:59.000Z'))).toMatchObject({ id: '2026-11', resetDate: '2026-12-01' });
    expect(calendarMonth(Date.parse('2026-12-31T23:00:00.000Z'))).toMatchObject({ id: '2026-12', resetDate: '2027-01-01' });
  });
});
