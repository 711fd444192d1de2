import { defineResource, type Resource } from '../../../shared/operation';
import { legacyReportGet } from './get';

export const legacyReportResource: Resource = defineResource({
	resource: 'legacyReport',
	displayName: 'Legacy Report (Deprecated)',
	defaultOperation: 'get',
	operations: [legacyReportGet],
});
