import type { BadInput } from './badInput.test';

/** Bad inputs of the Ads node (create, update, validate bots); filled in with that node. */
export const AD_BAD_INPUTS: BadInput[] = [];
