import { JVM_OPTIONS, javaArguments } from '../../../bin/local/dynamodb-local';

describe("DynamoDB Local's java command line", () => {
  const args = javaArguments(8000, ['-inMemory']);

  it('gives the JVM its options before -jar, the only place java reads them as its own', () => {
    const jar = args.indexOf('-jar');
    expect(JVM_OPTIONS.length).toBeGreaterThan(0);
    for (const option of JVM_OPTIONS) {
      expect(args.indexOf(option)).toBeGreaterThanOrEqual(0);
      expect(args.indexOf(option)).toBeLessThan(jar);
    }
  });

  it('runs the throughput collector rather than G1 (issue 28: the CPU a visit costs the emulator)', () => {
    expect(args.slice(0, args.indexOf('-jar'))).toContain('-XX:+UseParallelGC');
  });

  it("hands the port, the shared database, no telemetry and the storage to DynamoDB Local, after the jar", () => {
    expect(args.slice(args.indexOf('-jar') + 2)).toEqual(['-port', '8000', '-sharedDb', '-disableTelemetry', '-inMemory']);
  });
});
