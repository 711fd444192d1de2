import type { Sandbox } from '../sandbox';

/** The adCabinetApi credential's data (a type alias, so it also fits n8n's credential data type). */
export type SandboxCredential = { accessToken: string; baseUrl: string; clientApiUrl: string };

/** Credential data pointing at a sandbox. */
export function credentialsFor(sandbox: Sandbox, token = sandbox.token): SandboxCredential {
	return { accessToken: token, baseUrl: sandbox.baseUrl, clientApiUrl: sandbox.clientApiUrl };
}

/** The API requests a sandbox received, without its control traffic. */
export function apiRequests(sandbox: Sandbox) {
	return sandbox.requests.filter((request) => request.api === 'base' || request.api === 'client');
}
