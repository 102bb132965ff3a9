import { LINK_PLACE_MS, rememberedPlaces } from '../../../../functions/shared/domain/analytics/remembered-places';
import type { LinkPlace } from '../../../../functions/shared/domain/analytics/rollups';

describe("the aggregator's remembered link places (issue 28)", () => {
  const setUp = (places: Record<string, LinkPlace | undefined>) => {
    const reads: string[] = [];
    const placeOf = rememberedPlaces(async (key) => {
      reads.push(key);
      return places[key];
    });
    return { reads, placeOf };
  };

  it('reads a link once while its place is trusted, and again once that time is up', async () => {
    const { reads, placeOf } = setUp({ a: { owner: 'acct_1', tags: ['sale'] } });
    expect(await placeOf('a', 0)).toEqual({ owner: 'acct_1', tags: ['sale'] });
    expect(await placeOf('a', LINK_PLACE_MS - 1)).toEqual({ owner: 'acct_1', tags: ['sale'] });
    expect(reads).toEqual(['a']);
    await placeOf('a', LINK_PLACE_MS);
    expect(reads).toEqual(['a', 'a']);
  });

  it('remembers a gone link as gone, and each link apart', async () => {
    const { reads, placeOf } = setUp({ b: { owner: 'acct_2', tags: [] } });
    expect(await placeOf('gone', 0)).toBeUndefined();
    expect(await placeOf('gone', 10)).toBeUndefined();
    expect(await placeOf('b', 10)).toEqual({ owner: 'acct_2', tags: [] });
    expect(reads).toEqual(['gone', 'b']);
  });
});
