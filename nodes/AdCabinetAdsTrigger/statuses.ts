/**
 * The ad statuses the API uses. The real service's answers show active, stopped and in_review, and
 * its status edit lists on_hold, declined and deleted too; an ad list may still carry another one,
 * which the trigger stores and reports as it is.
 */
export const AD_STATUS_TERMS = [
	{ name: 'Active', value: 'active', description: 'Running' },
	{ name: 'Stopped', value: 'stopped', description: 'Stopped by the advertiser or its budget' },
	{ name: 'In Review', value: 'in_review', description: 'Waiting for moderation' },
	{ name: 'On Hold', value: 'on_hold', description: 'Approved, held until it is started' },
	{ name: 'Declined', value: 'declined', description: 'Refused by moderation' },
	{ name: 'Deleted', value: 'deleted', description: 'Deleted by the advertiser' },
] as const;

export const AD_STATUSES: readonly string[] = AD_STATUS_TERMS.map((term) => term.value);
