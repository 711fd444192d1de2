import { AdCabinetApi } from '../../../../credentials/AdCabinetApi.credentials';
import { SESSION, viewOf } from '../../../../nodes/shared/auth/credentialView';
import {
	bearerTokenOf,
	hash,
	ownsSession,
	sessionOwner,
} from '../../../../nodes/shared/auth/session';

const PASSWORD = 'correct horse battery';
const credential = {
	authMethod: 'password',
	username: 'ops@example.test',
	password: PASSWORD,
	baseUrl: 'https://client.example.test',
};

describe('the session fingerprint reveals nothing of the password', () => {
	test('it is keyed: without the random key it cannot be checked against a guessed password', () => {
		const owner = sessionOwner(viewOf(credential), 'key-one-1234');
		expect(owner).toMatch(/^v2:[0-9a-z]+$/);
		expect(owner).not.toBe(sessionOwner(viewOf(credential), 'key-two-5678'));
		// The unkeyed hash the earlier version stored is not what is stored now.
		const unkeyed = `v1:${hash(`password\u0000https://client.example.test\u0000ops@example.test\u0000${PASSWORD}`)}`;
		expect(owner).not.toBe(unkeyed);
	});

	test('the fingerprint and its key are password fields, so n8n never shows them', () => {
		const properties = new AdCabinetApi().properties;
		for (const name of [SESSION.owner, SESSION.key, SESSION.token, SESSION.refreshToken]) {
			const property = properties.find((p) => p.name === name);
			expect(property?.type).toBe('hidden');
			expect(property?.typeOptions?.password).toBe(true);
		}
	});

	test('a session stored with its key is used; an edit of the password starts anew', () => {
		const stored = {
			...credential,
			[SESSION.key]: 'k-1',
			[SESSION.owner]: sessionOwner(viewOf(credential), 'k-1'),
			[SESSION.token]: 'acc-1',
		};
		expect(ownsSession(viewOf(stored))).toBe(true);
		expect(bearerTokenOf(viewOf(stored))).toBe('acc-1');
		expect(bearerTokenOf(viewOf({ ...stored, password: 'another' }))).toBe('');
		// A fingerprint without its key is not trusted.
		expect(bearerTokenOf(viewOf({ ...stored, [SESSION.key]: '' }))).toBe('');
	});

	test('a credential saved by the earlier version (an unkeyed v1 fingerprint) still works', () => {
		const v1 = `v1:${hash(`password\u0000https://client.example.test\u0000ops@example.test\u0000${PASSWORD}`)}`;
		const saved = { ...credential, [SESSION.owner]: v1, [SESSION.token]: 'acc-old' };
		expect(bearerTokenOf(viewOf(saved))).toBe('acc-old');
		expect(bearerTokenOf(viewOf({ ...saved, password: 'edited' }))).toBe('');
	});
});
