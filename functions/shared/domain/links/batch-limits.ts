/** Links in one batch request (spec 4.2); also how the CSV import splits a file. */
export const MAX_BATCH_ITEMS = 50;
