import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { signInCredentialsFor } from '../../harness/sandbox';
import { forgetSharedRenewals } from '../../nodes/shared/auth';
import { useSandbox } from '../support/useSandbox';

const objects: INodeParameters = {
	resource: 'advertisedObject',
	operation: 'getAll',
	returnAll: true,
};
const statsByDay: INodeParameters = {
	resource: 'statistic',
	operation: 'getAll',
	period: 'last7Days',
	periodGroupingUnit: 'day',
	grouping: ['campaign'],
	returnAll: true,
	options: { pageSize: 5 },
};

describe('a renewal is shared within its own credential, and never a token the API refused', () => {
	// One session per user, as services that end the earlier tokens at each sign-in or refresh.
	const sandbox = useSandbox({
		platform: 'telegram',
		username: 'ops@sharing.test',
		password: 'sharing-password-58e',
		singleSession: true,
	});
	const counts = () => ({ ...sandbox().sessions.counts });
	/** A credential of the sandbox's account, as n8n stores it: its hidden fields filled in by the runs. */
	const credential = (): ICredentialDataDecryptedObject => ({ ...signInCredentialsFor(sandbox()) });
	const run = async (
		credentials: ICredentialDataDecryptedObject,
		parameters: INodeParameters = objects,
	) => await runNode({ type: 'adCabinetStats', parameters, credentials });

	beforeEach(() => forgetSharedRenewals());

	test('two credentials of one account: the second, used right after the first was renewed twice and revoked, signs in itself and its run succeeds', async () => {
		const first = credential();
		expect((await run(first)).error).toBeUndefined();
		for (let expiry = 0; expiry < 2; expiry++) {
			sandbox().sessions.expire({ access: true });
			expect((await run(first)).error).toBeUndefined();
		}
		sandbox().sessions.revokeAll();
		const before = counts();
		sandbox().clearLog();
		const second = credential();
		const { error, items } = await run(second);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(sandbox().data.objects.length);
		expect(counts()).toMatchObject({ logins: before.logins + 1, refreshes: before.refreshes });
		// It signed in before its first request, and the API refused none of its tokens.
		const trail = sandbox().requests.map((r) => `${r.path} ${r.status}`);
		expect(trail[0]).toBe('/api/v2/login 200');
		expect(trail.filter((line) => line.endsWith(' 401'))).toEqual([]);
		expect(second.sessionToken).not.toBe(first.sessionToken);
		expect(second.sessionKey).not.toBe(first.sessionKey);
	});

	test('a renewed token refused at once: the next request renews at the API, and a request still holding the token before it is not handed the refused one', async () => {
		const credentials = credential();
		expect((await run(credentials)).error).toBeUndefined();
		// A run that read the credential before the renewal below keeps the token it read.
		const readBefore = { ...credentials };
		sandbox().sessions.expire({ access: true });
		expect((await run(credentials)).error).toBeUndefined();
		const renewed = credentials.sessionToken;
		sandbox().sessions.expire({ access: true });
		const before = counts();
		expect((await run(credentials)).error).toBeUndefined();
		expect(counts().refreshes).toBe(before.refreshes + 1);
		expect(credentials.sessionToken).not.toBe(renewed);
		const stale = await run(readBefore);
		expect(stale.error).toBeUndefined();
		expect(stale.items).toHaveLength(sandbox().data.objects.length);
		// Refresh first: the refresh token still works, so no sign-in.
		expect(counts()).toMatchObject({ logins: before.logins, refreshes: before.refreshes + 2 });
		expect(readBefore.sessionToken).not.toBe(renewed);
	});

	test('the token n8n renewed is refused on the repeat: that run stops after two repeats and says so, and the next run that met the same old token renews at the API', async () => {
		const credentials = credential();
		expect((await run(credentials, statsByDay)).error).toBeUndefined();
		// Two runs that read the credential before the renewal below.
		const readBefore = { ...credentials };
		const readBeforeToo = { ...credentials };
		sandbox().sessions.expire({ access: true });
		expect((await run(credentials, statsByDay)).error).toBeUndefined();
		// The renewed token ends before the first of them repeats its request with it.
		sandbox().sessions.expire({ access: true });
		const before = counts();
		const refused = await run(readBefore, statsByDay);
		expect(refused.error?.message).toMatch(
			/^The Ad Cabinet API refused the access token \(401\) even after n8n renewed it and read the credential once more/,
		);
		expect(counts()).toMatchObject({ logins: before.logins, refreshes: before.refreshes });
		const next = await run(readBeforeToo, statsByDay);
		expect(next.error).toBeUndefined();
		expect(counts()).toMatchObject({ logins: before.logins, refreshes: before.refreshes + 1 });
	});

	test('items and parallel statistics parts that meet one expired token still share one renewal', async () => {
		const credentials = credential();
		expect((await run(credentials, statsByDay)).error).toBeUndefined();
		sandbox().sessions.expire({ access: true });
		let before = counts();
		const parts = await run(credentials, statsByDay);
		expect(parts.error).toBeUndefined();
		expect(parts.items.length).toBeGreaterThan(5);
		expect(counts()).toMatchObject({ logins: before.logins, refreshes: before.refreshes + 1 });
		sandbox().sessions.expire({ access: true });
		before = counts();
		const items = await runNode({
			type: 'adCabinetStats',
			parameters: objects,
			credentials,
			input: Array.from({ length: 8 }, (_, i) => ({ i })),
		});
		expect(items.error).toBeUndefined();
		expect(items.items).toHaveLength(8 * sandbox().data.objects.length);
		expect(counts()).toMatchObject({ logins: before.logins, refreshes: before.refreshes + 1 });
	});
});
