import { compileFilterPattern } from '../../../bin/local/filter-pattern';

describe('CloudWatch Logs JSON filter patterns, locally', () => {
  it('select the lines the deployed filter selects', () => {
    const clicks = compileFilterPattern('{ $.message = "click" }');
    expect(clicks('{"level":"INFO","message":"click","click":{}}')).toBe(true);
    expect(clicks('{"level":"INFO","message":"clicks"}')).toBe(false);
    expect(clicks('{"message":{"nested":true}}')).toBe(false);
    expect(clicks('plain text click')).toBe(false);
  });

  it('support wildcards, != and &&', () => {
    const filter = compileFilterPattern('{ $.click.code = "ab*" && $.level != "DEBUG" }');
    expect(filter('{"level":"INFO","click":{"code":"abc"}}')).toBe(true);
    expect(filter('{"level":"DEBUG","click":{"code":"abc"}}')).toBe(false);
    expect(filter('{"level":"INFO","click":{"code":"xbc"}}')).toBe(false);
  });

  it('refuse what they do not support, rather than filter differently from AWS', () => {
    expect(() => compileFilterPattern('ERROR')).toThrow(/JSON filter patterns only/);
    expect(() => compileFilterPattern('{ $.latency > 100 }')).toThrow(/unsupported/);
  });
});
