import type { Cabinet } from '../data/model';
import type { SandboxData } from '../data/sandboxData';
import { ApiError, FieldErrors } from '../errors';
import { checkAudienceFile } from './audienceFile';
import { json, multipartBody, type Handler } from './context';
import { accessibleCabinet } from './pixelAccess';

/** Audiences exist only for cabinets whose geolocation is Uzbekistan. */
function audienceCabinet(data: SandboxData, accountId: string): Cabinet {
	const cabinet = accessibleCabinet(data, accountId, 404);
	if (cabinet.geolocation !== 'UZ') {
		throw new ApiError(
			403,
			`Audiences are available only for cabinets whose geolocation is Uzbekistan; account ${accountId} is located in ${cabinet.geolocation}.`,
		);
	}
	return cabinet;
}

/** GET {client_api_url}/api/advertisement/{platform}/{account_id}/audiences/: its audiences. */
export const audienceList: Handler = ({ req, data }) => {
	audienceCabinet(data, req.params.account_id);
	return json(
		data.audiencesOf(req.params.account_id).map((audience) => data.audienceView(audience)),
	);
};

/** POST {client_api_url}/api/advertisement/{platform}/{account_id}/audiences: 201 with the audience. */
export const audienceCreate: Handler = ({ req, data }) => {
	const cabinet = audienceCabinet(data, req.params.account_id);
	const form = multipartBody(req);
	const errors = new FieldErrors();
	for (const name of [...Object.keys(form.fields), ...Object.keys(form.files)]) {
		if (name !== 'title' && name !== 'audience')
			errors.add(name, 'unknown part; send the parts title and audience');
	}
	const title = form.fields.title;
	if (form.files.title) errors.add('title', 'must be a text field, not a file');
	else if (title === undefined || title.trim() === '') errors.add('title', 'is required');
	const file = form.files.audience;
	if (!file) {
		errors.add(
			'audience',
			form.fields.audience !== undefined
				? 'must be a file part, not a text field'
				: 'a file part named "audience" is required',
		);
	}
	errors.throwIfAny();
	const { entries, problems } = checkAudienceFile(file);
	for (const problem of problems) errors.add('audience', problem);
	errors.throwIfAny();
	const audience = data.createAudience(cabinet.account_id, title, entries);
	return json(data.audienceView(audience), 201);
};
