import { InvalidRequest, UnderMaintenance } from '../../../../functions/shared/domain/errors';
import { SAFE_DEFAULT_FLAGS, assertNotInMaintenance, assertShorteningEnabled, parseFlagValue } from '../../../../functions/shared/domain/limits/flags';
import { Messages } from '../../../../functions/shared/domain/messages';

describe('flag values', () => {
  it.each(['on', 'ON', 'true', '1', ' enabled '])('%j reads as on', (raw) => {
    expect(parseFlagValue('shortening', raw)).toBe(true);
  });

  it.each(['off', 'false', '0', 'disabled'])('%j reads as off', (raw) => {
    expect(parseFlagValue('shortening', raw)).toBe(false);
  });

  it('fall back to the safe default when missing or garbled', () => {
    expect(parseFlagValue('shortening', undefined)).toBe(true);
    expect(parseFlagValue('maintenance', 'maybe')).toBe(false);
    expect(parseFlagValue('customAliases', 'of')).toBe(true);
  });
});

describe('platform switches', () => {
  it('maintenance gives the spec message', () => {
    expect(() => assertNotInMaintenance({ ...SAFE_DEFAULT_FLAGS, maintenance: true })).toThrow(new UnderMaintenance(Messages.maintenance));
    expect(() => assertNotInMaintenance(SAFE_DEFAULT_FLAGS)).not.toThrow();
  });

  it('shortening off gives the spec message', () => {
    expect(() => assertShorteningEnabled({ ...SAFE_DEFAULT_FLAGS, shortening: false })).toThrow(new InvalidRequest(Messages.shorteningDisabled));
  });
});
