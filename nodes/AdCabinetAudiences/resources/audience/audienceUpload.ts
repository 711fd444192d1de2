import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { apiRequest, connectionOptions } from '../../../shared/transport/request';
import { describeCounts, type AudienceBuild } from './audienceFile';
import { audienceHint } from './hints';

// The API reads the audience as a CSV file part named `audience`; the name and type are fixed.
const FILE_NAME = 'audience.csv';
const FILE_TYPE = 'text/csv';

/** The cabinet and the title of the audience to create. */
export interface AudienceTarget {
	accountId: string;
	title: string;
}

/** Sends one built file (multipart `title` + `audience`) and reports what was sent. */
export async function uploadAudience(
	ctx: IExecuteFunctions,
	target: AudienceTarget,
	build: AudienceBuild,
	i: number,
): Promise<IDataObject> {
	const form = new FormData();
	form.append('title', target.title);
	form.append('audience', new Blob([build.content], { type: FILE_TYPE }), FILE_NAME);
	const body = await apiRequest.call(ctx, {
		api: 'client',
		method: 'POST',
		path: (names) => names.paths.audienceCreate(target.accountId),
		body: form,
		idempotent: false,
		itemIndex: i,
		connection: connectionOptions(ctx, i),
		hint: audienceHint(target.accountId),
	});
	const report = {
		...build.report,
		summary: describeCounts(build.report),
	} as unknown as IDataObject;
	if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
		return { ...(body as IDataObject), report };
	}
	return { account_id: target.accountId, title: target.title, success: true, report };
}
