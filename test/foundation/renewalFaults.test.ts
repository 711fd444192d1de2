import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { signInCredentialsFor } from '../../harness/sandbox';
import { forgetSharedRenewals } from '../../nodes/shared/auth';
import { useSandbox } from '../support/useSandbox';

const USERNAME = 'ops@faults.test';
const PASSWORD = 'faults-password-31d';

const objects: INodeParameters = {
	resource: 'advertisedObject',
	operation: 'getAll',
	returnAll: true,
};

describe('sign-in and renewal under faults, through n8n-core', () => {
	const sandbox = useSandbox({
		platform: 'telegram',
		username: USERNAME,
		password: PASSWORD,
		rateLimit: 'off',
	});
	const counts = () => ({ ...sandbox().sessions.counts });

	beforeEach(() => forgetSharedRenewals());
	afterEach(() => sandbox().authFaults.clear());

	test('a refused password over 3 runs of 20 items with Continue On Fail: one sign-in request, every item fails at once with when it is tried again', async () => {
		const credentials = signInCredentialsFor(sandbox(), { password: 'a-wrong-password' });
		const before = counts();
		const messages: string[] = [];
		for (let run = 0; run < 3; run++) {
			const { items } = await runNode({
				type: 'adCabinetStats',
				parameters: objects,
				credentials,
				input: Array.from({ length: 20 }, (_, i) => ({ i })),
				continueOnFail: true,
			});
			expect(items).toHaveLength(20);
			for (const item of items) messages.push(String(item.json.error ?? ''));
		}
		const signIns = counts().failedLogins - before.failedLogins;
		expect(signIns).toBe(1);
		expect(
			messages.every((m) => /Sign-in to the Ad Cabinet API failed: the API refused/.test(m)),
		).toBe(true);
		expect(messages.every((m) => /again at \d\d:\d\d:\d\d UTC/.test(m))).toBe(true);
		expect(messages.every((m) => /Editing the credential tries again at once/.test(m))).toBe(true);
		expect(messages.join('\n')).not.toContain('a-wrong-password');
		// The credential edited: the next run signs in at once.
		credentials.password = PASSWORD;
		const { error } = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(error).toBeUndefined();
		expect(counts().logins).toBe(before.logins + 1);
	});

	test('a first sign-in that answers 502 once is retried, and the run succeeds', async () => {
		const credentials = signInCredentialsFor(sandbox());
		sandbox().authFaults.set({ kind: 502, latencyMs: 0, count: 1, paths: ['sign-in'] });
		const { error, items } = await runNode({
			type: 'adCabinetStats',
			parameters: objects,
			credentials,
		});
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		expect(sandbox().authFaults.injected['sign-in']).toBe(1);
	});

	test('a burst of 5xx on the refresh path at an expiry: the refresh is retried, no new sign-in, the run succeeds', async () => {
		const credentials = signInCredentialsFor(sandbox());
		await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		const before = counts();
		sandbox().sessions.expire({ access: true });
		sandbox().authFaults.set({ kind: 503, latencyMs: 0, count: 3, paths: ['refresh'] });
		const { error } = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(error).toBeUndefined();
		expect(counts()).toMatchObject({ logins: before.logins, refreshes: before.refreshes + 1 });
		expect(sandbox().authFaults.injected.refresh).toBe(3);
	});

	test('every token revoked at once: the refused refresh token falls back to a sign-in at once, and the run succeeds', async () => {
		const credentials = signInCredentialsFor(sandbox());
		await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		sandbox().sessions.revokeAll();
		const before = counts();
		const { error } = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(error).toBeUndefined();
		expect(counts()).toMatchObject({
			failedRefreshes: before.failedRefreshes + 1,
			logins: before.logins + 1,
		});
	});
});
