/** The spec's body shapes (section 7.5 and 2.2) as exact key sets, for asserting nothing more and nothing less. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function expectBadRequest(body: Record<string, unknown>, path: string, message: string, statusCode = 400): void {
  expect(body).toEqual({ statusCode, timestamp: expect.stringMatching(ISO_MS), path, method: 'POST', message });
}

export function expectForbidden(body: Record<string, unknown>, feature: string, currentPlan: string): void {
  expect(body).toEqual({
    statusCode: 403,
    message: expect.stringMatching(/ the INDIE plan or higher\.$/),
    error: 'Forbidden',
    feature,
    currentPlan,
    upgradeUrl: 'https://example.com/pricing',
  });
}
