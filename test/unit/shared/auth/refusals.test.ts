import { viewOf } from '../../../../nodes/shared/auth/credentialView';
import {
	FIRST_PAUSE_MS,
	forgetRefusal,
	forgetRefusals,
	MAX_PAUSE_MS,
	refusalInForce,
	refusalKey,
	rememberRefusal,
} from '../../../../nodes/shared/auth/refusals';

const credential = {
	authMethod: 'password',
	username: 'u@x.test',
	password: 'pw-1',
	baseUrl: 'https://a.test',
};

beforeEach(() => forgetRefusals());

describe('a refused sign-in is remembered per credential fingerprint', () => {
	test('5 minutes first, doubling with each refusal up to 1 hour', () => {
		const key = refusalKey(viewOf(credential));
		let now = 1_000_000;
		const pauses: number[] = [];
		for (let i = 0; i < 6; i++) {
			const refusal = rememberRefusal(key, ' (401)', now);
			pauses.push(refusal.pauseMs);
			expect(refusalInForce(key, now + refusal.pauseMs - 1)).toBe(refusal);
			expect(refusalInForce(key, now + refusal.pauseMs)).toBeUndefined();
			now += refusal.pauseMs;
		}
		expect(pauses.map((ms) => ms / 60_000)).toEqual([5, 10, 20, 40, 60, 60]);
		expect(FIRST_PAUSE_MS).toBe(5 * 60_000);
		expect(MAX_PAUSE_MS).toBe(60 * 60_000);
	});

	test('any edit of the fields that sign in gives another fingerprint; other fields do not', () => {
		const key = refusalKey(viewOf(credential));
		expect(refusalKey(viewOf({ ...credential, password: 'pw-2' }))).not.toBe(key);
		expect(refusalKey(viewOf({ ...credential, username: 'v@x.test' }))).not.toBe(key);
		expect(refusalKey(viewOf({ ...credential, baseUrl: 'https://b.test' }))).not.toBe(key);
		expect(refusalKey(viewOf({ ...credential, rateLimitRequests: 3 }))).toBe(key);
		// The fingerprint holds nothing of the password.
		expect(key).not.toContain('pw-1');
	});

	test('a success forgets the refusal: the next one starts at 5 minutes again', () => {
		const key = refusalKey(viewOf(credential));
		rememberRefusal(key, '', 0);
		rememberRefusal(key, '', FIRST_PAUSE_MS);
		forgetRefusal(key);
		expect(rememberRefusal(key, '', 0).pauseMs).toBe(FIRST_PAUSE_MS);
	});
});
