import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { Sandbox, type SandboxOptions } from '../sandbox';

/** Starts a sandbox for a test file and stops it afterwards; returns a getter for it. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await Sandbox.start(options);
	});
	afterAll(async () => {
		await sandbox?.stop();
	});
	beforeEach(() => {
		sandbox?.faults.clear();
		sandbox?.clearLog();
	});
	return () => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
}

/** Credential data pointing at a sandbox (the shape of the adCabinetApi credential). */
export function credentialsFor(sandbox: Sandbox, token = sandbox.token): ICredentialDataDecryptedObject {
	return { accessToken: token, baseUrl: sandbox.baseUrl, clientApiUrl: sandbox.clientApiUrl };
}

/** The API requests a sandbox received, without its control traffic. */
export function apiRequests(sandbox: Sandbox) {
	return sandbox.requests.filter((request) => request.api === 'base' || request.api === 'client');
}
