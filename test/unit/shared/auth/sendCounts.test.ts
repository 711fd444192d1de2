import { noteSend, sendsOf, tokenSentLast } from '../../../../nodes/shared/auth/sendCounts';
import { AdCabinetApi } from '../../../../credentials/AdCabinetApi.credentials';

describe('sends: how many times n8n sent one request', () => {
	test('a request never handed to authenticate is unknown', () => {
		expect(sendsOf({ url: '/api/v2/advertisement/' })).toBeUndefined();
	});

	test('the repeat after a renewal is traced back to the options the package built', () => {
		const built = { url: '/api/v2/advertisement/' };
		const first = { ...built, headers: { Authorization: 'Bearer old' } };
		noteSend(built, first);
		expect(sendsOf(built)).toBe(1);
		// n8n hands authenticate what it returned the first time.
		noteSend(first, { ...first, headers: { Authorization: 'Bearer new' } });
		expect(sendsOf(built)).toBe(2);
		expect(sendsOf(first)).toBeUndefined();
	});

	test("the credential's authenticate counts each send of the options it is given", async () => {
		const credential = new AdCabinetApi();
		const built = { url: 'https://client.adstat.pro/api/v2/advertisement/' };
		const credentials = {
			authMethod: 'accessToken',
			accessToken: 'tok-1',
			baseUrl: 'https://client.adstat.pro',
		};
		const once = await credential.authenticate(credentials, built);
		expect(once.headers).toMatchObject({ Authorization: 'Bearer tok-1' });
		await credential.authenticate(credentials, once);
		expect(sendsOf(built)).toBe(2);
	});

	test('the token of the last send is kept: after a 401 it names the token the API refused', () => {
		const built = { url: '/api/report/objects' };
		expect(tokenSentLast(built)).toBeUndefined();
		const first = { ...built, headers: { Authorization: 'Bearer old' } };
		noteSend(built, first, 'old');
		expect(tokenSentLast(built)).toBe('old');
		noteSend(first, { ...first, headers: { Authorization: 'Bearer new' } }, 'new');
		expect(tokenSentLast(built)).toBe('new');
	});
});
