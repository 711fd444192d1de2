import { viewOf } from '../../../../nodes/shared/auth/credentialView';
import {
	forgetObtained,
	obtainedTokens,
	rememberObtained,
	scrub,
	secretsOf,
} from '../../../../nodes/shared/auth/secrets';
import { TOKEN } from '../../../support/fakeContext';

beforeEach(() => forgetObtained());

describe('tokens obtained during the run are scrubbed from every error', () => {
	test('an error built with the secrets known before the run still masks a token renewed since', () => {
		rememberObtained('renewed-token-8812', undefined, 'ab');
		expect(obtainedTokens()).toEqual(['renewed-token-8812']);
		expect(scrub('echo: Bearer renewed-token-8812', ['old-token-1111'])).toBe('echo: Bearer ***');
	});

	test('a bounded list: the oldest are dropped first', () => {
		for (let i = 0; i < 520; i++) rememberObtained(`token-number-${i}`);
		expect(obtainedTokens()).toHaveLength(500);
		expect(obtainedTokens()[0]).toBe('token-number-20');
	});
});

describe('secrets: what no error may quote', () => {
	test('secretsOf takes the token, refresh token and password, skipping empty or non-text values', () => {
		expect(
			secretsOf(
				viewOf({
					accessToken: 'tok-1',
					refreshToken: '',
					password: 'pw-secret',
					baseUrl: 'https://x',
					other: 'o',
				}),
			),
		).toEqual(['tok-1', 'pw-secret']);
		expect(secretsOf(viewOf({ accessToken: 12345 as unknown as string }))).toEqual([]);
	});

	test('scrub replaces every occurrence, and leaves secrets shorter than 4 characters alone', () => {
		expect(scrub(`a ${TOKEN} b ${TOKEN}`, [TOKEN])).toBe('a *** b ***');
		expect(scrub('abc abc', ['abc'])).toBe('abc abc');
		expect(scrub('nothing to hide')).toBe('nothing to hide');
	});
});
