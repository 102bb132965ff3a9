import type { paths } from '../../../clients/typescript/src/schema';

/** A link as the API lists and shows it. */
export type Link = paths['/v2/links']['get']['responses'][200]['content']['application/json']['links'][number];
export type LinkStats = paths['/v2/links/{code}/stats']['get']['responses'][200]['content']['application/json'];
export type Rule = NonNullable<Link['rules']>[number];
export type Variant = NonNullable<Link['variants']>[number];
