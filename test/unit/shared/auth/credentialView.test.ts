import {
	credentialViewOf,
	renewsItself,
	SESSION,
	viewOf,
} from '../../../../nodes/shared/auth/credentialView';

describe('viewOf: the credential read once', () => {
	test('every field the package uses, addresses without spaces and trailing slashes', () => {
		const raw = {
			platform: 'ext',
			authMethod: 'password',
			baseUrl: ' https://client.example.test/// ',
			clientApiUrl: 'https://clientapi.example.test/',
			username: 'ops@example.test',
			password: 'pw-1',
			rateLimitRequests: 10,
			rateLimitWindow: 60,
			[SESSION.token]: 'acc-1',
			[SESSION.refreshToken]: 'ref-1',
			[SESSION.owner]: 'v2:abc',
			[SESSION.key]: 'k-1',
			[SESSION.refusal]: '',
		};
		expect(viewOf(raw)).toEqual({
			identity: raw,
			platform: 'ext',
			authMethod: 'password',
			baseUrl: 'https://client.example.test',
			clientApiUrl: 'https://clientapi.example.test',
			username: 'ops@example.test',
			password: 'pw-1',
			refreshToken: '',
			accessToken: '',
			session: { token: 'acc-1', refreshToken: 'ref-1', owner: 'v2:abc', key: 'k-1', refusal: '' },
			pace: { requests: 10, windowMs: 60_000 },
		});
	});

	test('the identity is the object n8n handed over, so both hooks recognise it', () => {
		const raw = { accessToken: 't' };
		expect(viewOf(raw).identity).toBe(raw);
		expect(viewOf(raw).identity).toBe(viewOf(raw).identity);
	});

	test('a credential saved before the sign-in method existed uses its access token; without one, signs in', () => {
		expect(viewOf({ accessToken: 'legacy' }).authMethod).toBe('accessToken');
		expect(viewOf({}).authMethod).toBe('password');
		expect(viewOf({ authMethod: 'oauth', accessToken: 'x' }).authMethod).toBe('accessToken');
		expect(renewsItself(viewOf({ authMethod: 'refreshToken' }))).toBe(true);
		expect(renewsItself(viewOf({ authMethod: 'accessToken' }))).toBe(false);
	});

	test('text fields that are not text read as empty; a missing platform as empty (the real service)', () => {
		const view = viewOf({ password: 12 as unknown as string, platform: null as unknown as string });
		expect(view.password).toBe('');
		expect(view.platform).toBe('');
	});

	test('the rate limit: 0 requests or a bad window turn pacing off; the window defaults to 60 s', () => {
		expect(viewOf({ rateLimitRequests: 3 }).pace).toEqual({ requests: 3, windowMs: 60_000 });
		expect(viewOf({ rateLimitRequests: 2.7, rateLimitWindow: 1 }).pace).toEqual({
			requests: 2,
			windowMs: 1_000,
		});
		expect(viewOf({ rateLimitRequests: 0 }).pace).toBeUndefined();
		expect(viewOf({ rateLimitRequests: 10, rateLimitWindow: 0 }).pace).toBeUndefined();
		expect(viewOf({}).pace).toBeUndefined();
	});

	test("credentialViewOf reads the node's credential of this package when asked", async () => {
		const getCredentials = jest.fn(async () => ({
			accessToken: 'tok',
			baseUrl: 'https://a.test/',
		}));
		const view = await credentialViewOf({ getCredentials });
		expect(getCredentials).toHaveBeenCalledWith('adCabinetApi');
		expect(view.baseUrl).toBe('https://a.test');
	});
});
