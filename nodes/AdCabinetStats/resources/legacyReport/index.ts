import { defineResource } from '../../../shared/operation';
import { legacyReportGet } from './get';

export const legacyReportResource = defineResource({
	resource: 'legacyReport',
	displayName: 'Legacy Report (Deprecated)',
	defaultOperation: 'get',
	operations: [legacyReportGet],
});
