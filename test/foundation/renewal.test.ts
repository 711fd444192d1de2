import { createHash } from 'node:crypto';
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';
import type { MultipartBody } from '../../sandbox';
import { loadOptions, pollOnce, runNode } from '../../harness';
import { apiRequests, signInCredentialsFor } from '../../harness/sandbox';
import { forgetSharedRenewals } from '../../nodes/shared/auth';
import { trail } from '../support/requestTrail';
import { useSandbox } from '../support/useSandbox';

const USERNAME = 'ops@renewal.test';
const PASSWORD = 'renewal-password-91c';
const TOKEN_LIFETIME_S = 60;
const REFRESH_LIFETIME_S = 600;
const CABINET = '100001';

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

/** A tiny valid PNG (1x1): the sandbox sniffs real image signatures. */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);

describe('the credential renews its own access token (Username and Password, Refresh Token)', () => {
	const sandbox = useSandbox({
		platform: 'ext',
		username: USERNAME,
		password: PASSWORD,
		tokenLifetimeSeconds: TOKEN_LIFETIME_S,
		refreshLifetimeSeconds: REFRESH_LIFETIME_S,
	});
	/** Moves the sandbox's token clock on instead of waiting. */
	const after = (seconds: number) => sandbox().serviceTime.advance(seconds * 1000);
	const counts = () => ({ ...sandbox().sessions.counts });

	beforeEach(() => forgetSharedRenewals());

	test('with only a username and password: one sign-in, then every request and every later run use its token', async () => {
		const credentials: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		const first = await runNode({ type: 'adCabinetStats', parameters: statsByDay, credentials });
		expect(first.error).toBeUndefined();
		expect(first.items.length).toBeGreaterThan(5);
		const second = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(second.error).toBeUndefined();
		expect(counts()).toMatchObject({ logins: 1, refreshes: 0, failedLogins: 0 });
		const log = trail(sandbox().requests);
		expect(log[0]).toBe('POST /api/v2/login 200');
		expect(log.slice(1).every((line) => line.endsWith(' 200'))).toBe(true);
		const reads = apiRequests(sandbox()).filter((r) => r.path !== '/api/v2/login');
		expect(reads.length).toBeGreaterThan(5);
		expect(reads.every((r) => r.authorized)).toBe(true);
		// n8n stores what the sign-in gave in the credential's hidden fields.
		expect(credentials.sessionToken).toEqual(expect.any(String));
		expect(credentials.sessionRefreshToken).toEqual(expect.any(String));
	});

	test('an expired access token: 401, one refresh (no new sign-in), the same request repeated once', async () => {
		const credentials: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		sandbox().clearLog();
		const before = counts();
		after(TOKEN_LIFETIME_S + 1);
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters: objects,
			credentials,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(sandbox().data.objects.length);
		expect(trail(sandbox().requests)).toEqual([
			'GET /api/report/objects 401',
			'GET /api/v2/access-token 200',
			'GET /api/report/objects 200',
		]);
		expect(counts()).toEqual({ ...before, refreshes: before.refreshes + 1 });
	});

	test('the parallel statistics parts that all meet the expired token share one refresh', async () => {
		const credentials: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		const clean = await runNode({ type: 'adCabinetStats', parameters: statsByDay, credentials });
		after(TOKEN_LIFETIME_S + 1);
		sandbox().clearLog();
		const before = counts();
		const renewed = await runNode({ type: 'adCabinetStats', parameters: statsByDay, credentials });
		expect(renewed.error).toBeUndefined();
		expect(renewed.items.map((item) => item.json)).toEqual(clean.items.map((item) => item.json));
		expect(counts()).toEqual({ ...before, refreshes: before.refreshes + 1 });
		const refused = sandbox().requests.filter((r) => r.status === 401);
		expect(refused.length).toBeGreaterThanOrEqual(1);
		expect(refused.every((r) => r.path === '/api/v1/stats/page')).toBe(true);
	});

	test('the refresh token expired too: the refresh is refused and n8n signs in again with the username and password', async () => {
		const credentials: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		sandbox().clearLog();
		after(REFRESH_LIFETIME_S + 1);
		const before = counts();
		const { error } = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(error).toBeUndefined();
		expect(trail(sandbox().requests)).toEqual([
			'GET /api/report/objects 401',
			'GET /api/v2/access-token 401',
			'POST /api/v2/login 200',
			'GET /api/report/objects 200',
		]);
		expect(counts()).toEqual({
			...before,
			failedRefreshes: before.failedRefreshes + 1,
			logins: before.logins + 1,
		});
	});

	test('a wrong password: one refused sign-in, remembered for later runs, a message that names the sign-in, the fields and when it is tried again', async () => {
		const credentials = signInCredentialsFor(sandbox(), { password: 'not-the-password' });
		const before = counts();
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters: statsByDay,
			credentials,
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(
			/^Sign-in to the Ad Cabinet API failed: the API refused the username or password \(401: Incorrect username or password\)\. Check Username and Password in the Ad Cabinet API credential \(the ones you sign in to the cabinet with\), save it and run again: n8n tries this username and password again at .+ UTC \(in 5 minutes\)/,
		);
		expect(JSON.stringify(error)).not.toContain('not-the-password');
		expect(trail(sandbox().requests)).toEqual(['POST /api/v2/login 401']);
		expect(counts()).toEqual({ ...before, failedLogins: before.failedLogins + 1 });
		// Another run sends nothing: the refusal is remembered.
		const again = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(again.error?.message).toMatch(/n8n did not send the sign-in again/);
		expect(counts().failedLogins).toBe(before.failedLogins + 1);
		expect(apiRequests(sandbox()).filter((r) => r.path !== '/api/v2/login')).toEqual([]);
	});

	test('the username or password changed in the credential: the next request signs in with the new ones', async () => {
		const credentials: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox(), {
			password: 'old-wrong',
		});
		await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		credentials.password = PASSWORD;
		sandbox().clearLog();
		const { error } = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(error).toBeUndefined();
		expect(trail(sandbox().requests)).toEqual([
			'POST /api/v2/login 200',
			'GET /api/report/objects 200',
		]);
	});

	test('Refresh Token: renews with the pasted token; once it expired, says to paste a new one or switch to Username and Password', async () => {
		const { refreshToken } = sandbox().sessions.issueTokens();
		const credentials: ICredentialDataDecryptedObject = {
			platform: 'ext',
			authMethod: 'refreshToken',
			refreshToken,
			baseUrl: sandbox().baseUrl,
			clientApiUrl: sandbox().clientApiUrl,
		};
		const ok = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(ok.error).toBeUndefined();
		expect(trail(sandbox().requests)).toEqual([
			'GET /api/v2/access-token 200',
			'GET /api/report/objects 200',
		]);
		after(REFRESH_LIFETIME_S + 1);
		sandbox().clearLog();
		const { error } = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(error?.message).toMatch(
			/^Renewing the access token with the refresh token failed: the API refused the refresh token \(401: Refresh Token Expired\)\. A refresh token lasts 30 days from sign-in and cannot be renewed itself\. Paste a new Refresh Token into the Ad Cabinet API credential, or switch Sign-in Method to Username and Password/,
		);
		expect(error?.message).not.toContain(refreshToken);
		expect(trail(sandbox().requests)).toEqual([
			'GET /api/report/objects 401',
			'GET /api/v2/access-token 401',
		]);
	});

	test('Media Upload (multipart) after the token expired: one renewal and one repeat, with the whole file again', async () => {
		const credentials: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		after(TOKEN_LIFETIME_S + 1);
		sandbox().clearLog();
		const { items, error } = await runNode({
			type: 'adCabinetMedia',
			parameters: {
				resource: 'media',
				operation: 'upload',
				accountId: CABINET,
				binaryPropertyName: 'data',
			},
			credentials,
			input: [
				{
					json: {},
					binary: {
						data: { data: PNG.toString('base64'), mimeType: 'image/png', fileName: 'banner.png' },
					},
				},
			],
		});
		expect(error).toBeUndefined();
		expect(items[0].json.media_token).toEqual(expect.any(String));
		expect(trail(sandbox().requests)).toEqual([
			'POST /api/v1/advertising/ext/upload_media 401',
			'GET /api/v2/access-token 200',
			'POST /api/v1/advertising/ext/upload_media 200',
		]);
		const stored = apiRequests(sandbox()).filter((r) => r.status === 200 && r.method === 'POST');
		const file = (stored[0].body as MultipartBody).files.media;
		expect(file.sha256).toBe(createHash('sha256').update(PNG).digest('hex'));
		expect(sandbox().data.mediaUploads).toHaveLength(1);
	});

	test('Audiences Create (multipart) after the token expired: one renewal and one repeat, with the title and the whole file', async () => {
		const credentials: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		after(TOKEN_LIFETIME_S + 1);
		sandbox().clearLog();
		const phones = Array.from({ length: 1000 }, (_, i) => `99893${String(i).padStart(7, '0')}`);
		const { items, error } = await runNode({
			type: 'adCabinetAudiences',
			parameters: {
				resource: 'audience',
				operation: 'create',
				accountId: CABINET,
				title: 'Renewed audience',
				source: 'list',
				phoneNumbers: phones.join(', '),
			},
			credentials,
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ title: 'Renewed audience', report: { valid: 1000 } });
		const log = trail(sandbox().requests);
		expect(log).toEqual([
			`POST /api/advertisement/ext/${CABINET}/audiences 401`,
			'GET /api/v2/access-token 200',
			`POST /api/advertisement/ext/${CABINET}/audiences 201`,
		]);
		const [refused, accepted] = apiRequests(sandbox()).filter((r) => r.method === 'POST');
		const first = refused.body as MultipartBody;
		const second = accepted.body as MultipartBody;
		expect(second.fields).toEqual({ title: 'Renewed audience' });
		expect(second.files.audience.sha256).toBe(first.files.audience.sha256);
		expect(second.files.audience.size).toBeGreaterThan(1000 * 64);
	});

	test('a dropdown and a trigger poll renew the same way', async () => {
		const credentials: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		after(TOKEN_LIFETIME_S + 1);
		sandbox().clearLog();
		const options = await loadOptions(
			'adCabinetAds',
			'getPixelEvents',
			{ resource: 'ad', operation: 'create', accountId: CABINET },
			credentials,
		);
		expect(options.length).toBeGreaterThan(0);
		expect(trail(sandbox().requests)).toEqual([
			'GET /api/pixel_events/ 401',
			'GET /api/v2/access-token 200',
			'GET /api/pixel_events/ 200',
		]);
		after(TOKEN_LIFETIME_S + 1);
		sandbox().clearLog();
		const poll = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: {
				periodGroupingUnit: 'day',
				grouping: ['campaign'],
				emit: 'completed',
				startFrom: 'date',
				startDate: new Date(sandbox().clock.now().getTime() - 3 * 86_400_000).toISOString(),
				currency: 'EUR',
				numericValues: true,
				filters: {},
				options: {},
			},
			credentials,
			staticData: {},
		});
		expect(poll.error).toBeUndefined();
		expect(poll.items?.length).toBeGreaterThan(0);
		const log = trail(sandbox().requests);
		expect(log[0]).toBe('POST /api/v1/stats/page 401');
		expect(log.filter((line) => line.startsWith('GET /api/v2/access-token'))).toEqual([
			'GET /api/v2/access-token 200',
		]);
		expect(log[log.length - 1]).toBe('POST /api/v1/stats/page 200');
	});

	test('Access Token is used as it is: no sign-in, no refresh', async () => {
		const before = counts();
		const credentials = {
			authMethod: 'accessToken',
			accessToken: sandbox().token,
			baseUrl: sandbox().baseUrl,
			clientApiUrl: sandbox().clientApiUrl,
		};
		const { error } = await runNode({ type: 'adCabinetStats', parameters: objects, credentials });
		expect(error).toBeUndefined();
		expect(trail(sandbox().requests)).toEqual(['GET /api/report/objects 200']);
		expect(counts()).toEqual(before);
	});
});
