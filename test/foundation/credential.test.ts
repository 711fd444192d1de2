import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { testCredential } from '../../harness';
import { credentialsFor, signInCredentialsFor } from '../../harness/sandbox';
import { forgetSharedRenewals } from '../../nodes/shared/auth';
import { trail } from '../support/requestTrail';
import { useSandbox } from '../support/useSandbox';

const USERNAME = 'ops@renewal.test';
const PASSWORD = 'renewal-password-91c';
const TOKEN_LIFETIME_S = 60;

describe('Ad Cabinet API credential', () => {
	const sandbox = useSandbox({ token: 'cred-test-token-7f3a91' });

	test('the Test button passes with the right token and sends it as a bearer token', async () => {
		const result = await testCredential('adCabinetApi', credentialsFor(sandbox()));
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = sandbox().requests;
		expect(request).toMatchObject({
			method: 'GET',
			api: 'base',
			path: '/api/report/objects',
			authorized: true,
		});
	});

	test('a trailing slash on the Base URL is tolerated', async () => {
		const data = credentialsFor(sandbox());
		data.baseUrl = `${String(data.baseUrl)}/`;
		expect((await testCredential('adCabinetApi', data)).status).toBe('OK');
		expect(sandbox().requests[0].path).toBe('/api/report/objects');
	});

	test('a wrong token fails with a clear message that does not echo the token', async () => {
		const result = await testCredential(
			'adCabinetApi',
			credentialsFor(sandbox(), 'wrong-token-1234'),
		);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The Ad Cabinet API refused the pasted access token \(401\).*Paste a new token into Access Token/,
		);
		expect(result.message).not.toContain('wrong-token-1234');
	});

	test('a Base URL with no API behind it is reported as such', async () => {
		const data = credentialsFor(sandbox());
		data.baseUrl = `${String(data.baseUrl).replace(/\/base$/, '')}/nothing-here`;
		const result = await testCredential('adCabinetApi', data);
		expect(result.status).toBe('Error');
		expect(result.message).toContain('No Ad Cabinet API at this Base URL');
	});

	test('both addresses must be http(s) URLs', async () => {
		const { nodeTypes } = await import('../../harness');
		const credential = nodeTypes().credentialTypes.get('adCabinetApi');
		for (const name of ['baseUrl', 'clientApiUrl']) {
			const field = credential?.properties.find((p) => p.name === name);
			const rule = (
				field?.typeOptions?.validationRules as Array<{ properties: { regex: string } }>
			)[0];
			const regex = new RegExp(rule.properties.regex);
			expect(regex.test('https://ads.example.com')).toBe(true);
			expect(regex.test('http://127.0.0.1:8080/base/')).toBe(true);
			expect(regex.test('ftp://ads.example.com')).toBe(false);
			expect(regex.test('ads.example.com')).toBe(false);
			expect(regex.test('https://')).toBe(false);
		}
	});
});

describe('the credential Test signs in if it needs to, then reads once, and names the step that failed', () => {
	const sandbox = useSandbox({
		platform: 'ext',
		username: USERNAME,
		password: PASSWORD,
		tokenLifetimeSeconds: TOKEN_LIFETIME_S,
	});

	beforeEach(() => forgetSharedRenewals());

	test('a username and password: signs in, then one read; OK', async () => {
		const data: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		expect(await testCredential('adCabinetApi', data)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(trail(sandbox().requests)).toEqual([
			'POST /api/v2/login 200',
			'GET /api/report/objects 200',
		]);
	});

	test('after the token expired the Test renews it (with the refresh token) and passes', async () => {
		const data: ICredentialDataDecryptedObject = signInCredentialsFor(sandbox());
		await testCredential('adCabinetApi', data);
		sandbox().serviceTime.advance((TOKEN_LIFETIME_S + 1) * 1000);
		sandbox().clearLog();
		expect(await testCredential('adCabinetApi', data)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(trail(sandbox().requests)).toEqual([
			'GET /api/report/objects 401',
			'GET /api/v2/access-token 200',
			'GET /api/report/objects 200',
		]);
	});

	test('the sign-in failed: the message says so and which fields to check', async () => {
		const result = await testCredential(
			'adCabinetApi',
			signInCredentialsFor(sandbox(), { password: 'wrong-one-55' }),
		);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Sign-in to the Ad Cabinet API failed: the API refused the username or password \(401: Incorrect username or password\)\. Check Username and Password/,
		);
		expect(result.message).not.toContain('wrong-one-55');
		expect(trail(sandbox().requests)).toEqual(['POST /api/v2/login 401']);
	});

	test('the token failed: the read answered 401', async () => {
		const result = await testCredential('adCabinetApi', {
			authMethod: 'accessToken',
			accessToken: 'not-a-token-8812',
			baseUrl: sandbox().baseUrl,
			clientApiUrl: sandbox().clientApiUrl,
		});
		expect(result.status).toBe('Error');
		// With Access Token a refused token is not sent again: the message says to paste a new one.
		expect(result.message).toMatch(
			/^The Ad Cabinet API refused the pasted access token \(401\).*Paste a new token into Access Token/,
		);
		expect(result.message).not.toContain('not-a-token-8812');
	});

	test('the Base URL failed: no API there, whether found at sign-in or at the read', async () => {
		const nowhere = `${sandbox().baseUrl.replace(/\/base$/, '')}/nothing-here`;
		const signIn = await testCredential(
			'adCabinetApi',
			signInCredentialsFor(sandbox(), { baseUrl: nowhere }),
		);
		expect(signIn.status).toBe('Error');
		expect(signIn.message).toMatch(
			/^Sign-in to the Ad Cabinet API failed: http:\/\/127\.0\.0\.1:\d+\/nothing-here\/api\/v2\/login answered 404, so there is no Ad Cabinet API at this Base URL\. Check Base URL/,
		);
		const read = await testCredential('adCabinetApi', {
			authMethod: 'accessToken',
			accessToken: sandbox().token,
			baseUrl: nowhere,
			clientApiUrl: sandbox().clientApiUrl,
		});
		expect(read).toEqual({
			status: 'Error',
			message:
				'No Ad Cabinet API at this Base URL (GET /api/report/objects answered 404): check the address (https://client.adstat.pro for the real service)',
		});
	});
});
