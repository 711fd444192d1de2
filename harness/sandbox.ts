import type { Sandbox } from '../sandbox';

/** The adCabinetApi credential's data (a type alias, so it also fits n8n's credential data type). */
export type SandboxCredential = {
	authMethod: 'accessToken';
	accessToken: string;
	baseUrl: string;
	clientApiUrl: string;
	/** The form of the API, matching the sandbox's: the nodes name paths and fields by it. */
	platform: 'telegram' | 'ext';
	/** Requests per path and window; 0 turns pacing off. */
	rateLimitRequests: number;
	rateLimitWindow: number;
};

/** Credential data pointing at a sandbox, in the form it speaks. */
export function credentialsFor(sandbox: Sandbox, token = sandbox.token): SandboxCredential {
	return {
		authMethod: 'accessToken',
		accessToken: token,
		baseUrl: sandbox.baseUrl,
		clientApiUrl: sandbox.clientApiUrl,
		platform: sandbox.platform,
		...paceAs(sandbox),
	};
}

/** Pace as the sandbox limits (off when it has no limit), so a run never meets a 429 of its own making. */
function paceAs(sandbox: Sandbox): { rateLimitRequests: number; rateLimitWindow: number } {
	const limit = sandbox.rateLimiter.settings;
	return {
		rateLimitRequests: limit ? limit.requests : 0,
		rateLimitWindow: limit ? limit.windowSeconds : 60,
	};
}

/** A Username and Password credential for a sandbox: n8n signs in and renews the token itself. */
export type SignInCredential = {
	platform: string;
	authMethod: 'password';
	username: string;
	password: string;
	baseUrl: string;
	clientApiUrl: string;
	/** Requests per path and window; 0 turns pacing off. */
	rateLimitRequests: number;
	rateLimitWindow: number;
};

/** Credential data that signs in to a sandbox with its username and password. */
export function signInCredentialsFor(
	sandbox: Sandbox,
	overrides: Partial<SignInCredential> = {},
): SignInCredential {
	return {
		platform: sandbox.platform,
		authMethod: 'password',
		username: sandbox.username,
		password: sandbox.password,
		baseUrl: sandbox.baseUrl,
		clientApiUrl: sandbox.clientApiUrl,
		...paceAs(sandbox),
		...overrides,
	};
}

/** The API requests a sandbox received, without its control traffic. */
export function apiRequests(sandbox: Sandbox) {
	return sandbox.requests.filter((request) => request.api === 'base' || request.api === 'client');
}

/** The writes a sandbox received (every API request that is not a GET), in the order they arrived. */
export function apiWrites(sandbox: Sandbox) {
	return apiRequests(sandbox).filter((request) => request.method !== 'GET');
}
