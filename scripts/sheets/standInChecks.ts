/**
 * The closing checks on the Google stand-in: the calls n8n's Google Sheets node made (the list the
 * docs give), all of them implemented and answered 200; and that the stand-in is no pass-through:
 * it refuses an assertion signed by another key and a Sheets call without a token, as Google does.
 */
import { strict as assert } from 'node:assert';
import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import type { Checks } from '../lib/checks';
import { TOKEN_AUDIENCE, SHEETS_SCOPE, type GoogleStandIn } from './googleStandIn';
import type { Keys } from './keys';

/** One HTTPS call to a Google host (the namespace's hosts file sends it to the stand-in). */
async function call(
	ca: string,
	method: string,
	url: string,
	body?: string,
	headers: Record<string, string> = {},
): Promise<number> {
	return await new Promise((resolve, reject) => {
		const req = request(url, { method, ca, headers, timeout: 10_000 }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
		req.end(body);
	});
}

function assertion(email: string, privateKey: string): string {
	const now = Math.floor(Date.now() / 1000);
	const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: email, scope: SHEETS_SCOPE, aud: TOKEN_AUDIENCE, iat: now, exp: now + 3600 })}`;
	return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

export async function standInChecks(
	checks: Checks,
	standIn: GoogleStandIn,
	keys: Keys,
): Promise<void> {
	const calls = new Map<string, { count: number; statuses: Set<number> }>();
	for (const c of standIn.calls) {
		const line = `${c.method} https://${c.host}${c.route}${c.query.length ? `  ${c.query.join(', ')}` : ''}`;
		const seen = calls.get(line) ?? { count: 0, statuses: new Set<number>() };
		seen.count++;
		seen.statuses.add(c.status);
		calls.set(line, seen);
	}
	console.log(
		`\n▶ The Google calls n8n's Google Sheets node made (${standIn.calls.length} in all)`,
	);
	for (const [line, seen] of [...calls].sort())
		console.log(`  ${line}  ×${seen.count} → ${[...seen.statuses].join(', ')}`);
	await checks.check('every Google call was one the stand-in implements, and answered 200', () => {
		const refused = [...calls].filter(([, seen]) => [...seen.statuses].some((s) => s !== 200));
		assert.deepEqual(
			refused.map(([line]) => line),
			[],
		);
		assert.ok(
			[...calls.keys()].some((line) => line.startsWith('POST https://oauth2.googleapis.com/token')),
		);
	});

	const ca = readFileSync(keys.caFile, 'utf8');
	const form = (jwt: string) =>
		new URLSearchParams({
			grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
			assertion: jwt,
		}).toString();
	const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
	const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
		type: 'pkcs8',
		format: 'pem',
	});
	const sheetId = [...standIn.spreadsheets.keys()][0];
	const statuses = {
		accountKey: await call(
			ca,
			'POST',
			`${TOKEN_AUDIENCE}`,
			form(assertion(keys.account.email, keys.account.privateKeyPem)),
			formHeaders,
		),
		otherKey: await call(
			ca,
			'POST',
			`${TOKEN_AUDIENCE}`,
			form(assertion(keys.account.email, other.toString())),
			formHeaders,
		),
		noToken: await call(
			ca,
			'GET',
			`https://sheets.googleapis.com/v4/spreadsheets/${sheetId}?fields=sheets.properties`,
		),
	};
	console.log(
		`  the stand-in answers a token request signed with the account's key ${statuses.accountKey}, with another key ${statuses.otherKey}, and a Sheets call without a token ${statuses.noToken}`,
	);
	await checks.check(
		"the stand-in grants a token only for the service account's own key, and Sheets only with a token",
		() => {
			assert.deepEqual(statuses, { accountKey: 200, otherKey: 400, noToken: 401 });
		},
	);
}
