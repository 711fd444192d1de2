import { testCredential } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

describe('Ad Cabinet API credential', () => {
	const sandbox = useSandbox({ token: 'cred-test-token-7f3a91' });

	test('the Test button passes with the right token and sends it as a bearer token', async () => {
		const result = await testCredential('adCabinetApi', credentialsFor(sandbox()));
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = sandbox().requests;
		expect(request).toMatchObject({ method: 'GET', api: 'base', path: '/api/report/objects', authorized: true });
	});

	test('a trailing slash on the Base URL is tolerated', async () => {
		const data = credentialsFor(sandbox());
		data.baseUrl = `${String(data.baseUrl)}/`;
		expect((await testCredential('adCabinetApi', data)).status).toBe('OK');
		expect(sandbox().requests[0].path).toBe('/api/report/objects');
	});

	test('a wrong token fails with a clear message that does not echo the token', async () => {
		const result = await testCredential('adCabinetApi', credentialsFor(sandbox(), 'wrong-token-1234'));
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
			const rule = (field?.typeOptions?.validationRules as Array<{ properties: { regex: string } }>)[0];
			const regex = new RegExp(rule.properties.regex);
			expect(regex.test('https://ads.example.com')).toBe(true);
			expect(regex.test('http://127.0.0.1:8080/base/')).toBe(true);
			expect(regex.test('ftp://ads.example.com')).toBe(false);
			expect(regex.test('ads.example.com')).toBe(false);
			expect(regex.test('https://')).toBe(false);
		}
	});
});
