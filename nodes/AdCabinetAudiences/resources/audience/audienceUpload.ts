import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { credentialViewOf } from '../../../shared/auth';
import { platformNames } from '../../../shared/platform';
import { apiRequest, connectionOptions } from '../../../shared/transport/request';
import { describeForm, dryRunOutput, isDryRun } from '../../../shared/writes';
import { describeCounts, type AudienceBuild } from './audienceFile';
import { audienceHint } from './hints';

/** The Audiences node version from which Create takes Dry Run. */
const AUDIENCE_SAFE_WRITES_SINCE = 1.3;

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
	const credentials = await credentialViewOf(ctx);
	const path = platformNames(credentials, ctx.getNode(), i).paths.audienceCreate(target.accountId);
	const report = {
		...build.report,
		summary: describeCounts(build.report),
	} as unknown as IDataObject;
	if (isDryRun(ctx, i, AUDIENCE_SAFE_WRITES_SINCE)) {
		return { ...dryRunOutput('POST', path, await describeForm(form)), report };
	}
	const body = await apiRequest.call(ctx, {
		api: 'client',
		method: 'POST',
		path,
		credentials,
		body: form,
		idempotent: false,
		itemIndex: i,
		connection: connectionOptions(ctx, i),
		hint: audienceHint(target.accountId),
	});
	if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
		return { ...(body as IDataObject), report };
	}
	return { account_id: target.accountId, title: target.title, success: true, report };
}
