import { ApiError } from '../errors';
import { json, type ApiRequest, type Handler } from './context';

/** The real service answers its sign-in errors with the status repeated in the body. */
function signInError(status: number, detail: string, errors?: Record<string, string[]>): ApiError {
	return new ApiError(status, detail, errors, {}, { status_code: status });
}

const FORM_RULE =
	'send a form body (application/x-www-form-urlencoded or multipart/form-data) with the fields username and password';

function formFields(req: ApiRequest): Record<string, string> {
	switch (req.body.kind) {
		case 'form':
			return req.body.value as Record<string, string>;
		case 'multipart':
			return (req.body.value as { fields: Record<string, string> }).fields;
		case 'none':
			return {};
		default:
			// The mid-2024 docs' JSON body `{login, password}` was removed in March 2025.
			throw signInError(422, `Sign-in takes no JSON body: ${FORM_RULE}.`, {
				body: [FORM_RULE],
			});
	}
}

/** POST {base_url}/api/v2/login: `{user_id, access_token, refresh_token}`. */
export const login: Handler = ({ req, sessions }) => {
	const fields = formFields(req);
	const missing = ['username', 'password'].filter((name) => (fields[name] ?? '') === '');
	if (missing.length > 0) {
		throw signInError(
			422,
			missing.map((name) => `${name}: field required`).join(' | '),
			Object.fromEntries(missing.map((name) => [name, [`field required; ${FORM_RULE}`]])),
		);
	}
	const session = sessions.login(fields.username, fields.password);
	if (!session) throw signInError(401, 'Incorrect username or password');
	return json({
		user_id: session.userId,
		access_token: session.accessToken,
		refresh_token: session.refreshToken,
	});
};

/**
 * GET {base_url}/api/v2/access-token with the refresh token in a header named `refresh_token`:
 * `{access_token, token_type: "Bearer"}`. The refresh token itself is not renewed.
 */
export const accessToken: Handler = ({ req, sessions }) => {
	const header = req.headers.refresh_token;
	const refreshToken = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
	if (refreshToken === '') {
		throw signInError(
			401,
			'Refresh token missing: send it in a request header named refresh_token (not in Authorization).',
		);
	}
	const result = sessions.refresh(refreshToken);
	if (result.kind === 'expired') throw signInError(401, 'Refresh Token Expired');
	if (result.kind === 'unknown') throw signInError(401, 'Invalid Refresh Token');
	return json({ access_token: result.accessToken, token_type: 'Bearer' });
};
