import type { Sandbox } from '../sandbox';

/** The adCabinetApi credential's data (a type alias, so it also fits n8n's credential data type). */
export type SandboxCredential = {
	accessToken: string;
	baseUrl: string;
	clientApiUrl: string;
	/** The form of the API, matching the sandbox's: the nodes name paths and fields by it. */
	platform: 'telegram' | 'ext';
};

/** Credential data pointing at a sandbox, in the form it speaks. */
export function credentialsFor(sandbox: Sandbox, token = sandbox.token): SandboxCredential {
	return {
		accessToken: token,
		baseUrl: sandbox.baseUrl,
		clientApiUrl: sandbox.clientApiUrl,
		platform: sandbox.platform,
	};
}

/** The API requests a sandbox received, without its control traffic. */
export function apiRequests(sandbox: Sandbox) {
	return sandbox.requests.filter((request) => request.api === 'base' || request.api === 'client');
}
