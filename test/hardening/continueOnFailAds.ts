import type { FailingSecondItem } from './continueOnFail.test';

/** Continue On Fail cases of the Ads node; filled in with that node. */
export const AD_CONTINUE_ON_FAIL: FailingSecondItem[] = [];
