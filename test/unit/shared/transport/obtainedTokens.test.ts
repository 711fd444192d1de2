import { scrub } from '../../../../nodes/shared/transport/errors';
import {
	forgetObtained,
	obtainedTokens,
	rememberObtained,
} from '../../../../nodes/shared/transport/obtainedTokens';

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
