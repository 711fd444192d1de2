/**
 * What a user sees in a running n8n (`n8n start`, and `npm run dev`): the editor, our node and
 * credential types with their icons, a credential that tests green, the example workflows.
 */
import { strict as assert } from 'node:assert';
import type { Sandbox } from '../../sandbox';
import { apiRequests } from '../../harness/sandbox';
import type { Checks } from './checks';
import { credentialsFor } from '../../harness/sandbox';
import type { PackageJson } from './installPackage';
import { checkNodeTypes } from './nodeTypes';
import { OWNER, type N8nRest } from './rest';
import { CREDENTIAL_TYPE, SANDBOX_CREDENTIAL, type Example } from './workflows';

interface CredentialTestResult {
	status: string;
	message: string;
}

async function testCredential(
	rest: N8nRest,
	data: Record<string, string | number>,
	id = SANDBOX_CREDENTIAL.id,
): Promise<CredentialTestResult> {
	return await rest.request<CredentialTestResult>('POST', '/rest/credentials/test', {
		credentials: { ...SANDBOX_CREDENTIAL, id, type: CREDENTIAL_TYPE, data },
	});
}

export async function checkEditor(
	checks: Checks,
	rest: N8nRest,
	sandbox: Sandbox,
	pkg: PackageJson,
	examples: Example[],
	n8nVersion: string,
): Promise<void> {
	await checks.check(`the editor is served on ${rest.baseUrl} and the owner signs in`, async () => {
		const page = await rest.fetchRaw('/');
		assert.equal(page.status, 200);
		assert.match(await page.text(), /<title>n8n/i);
		await rest.signIn();
		const me = await rest.request<{ email: string }>('GET', '/rest/login');
		assert.equal(me.email, OWNER.email);
	});
	await checkNodeTypes(checks, rest, pkg, examples);
	await checks.check(
		'the sandbox credential tests green (Test in the credential dialog)',
		async () => {
			sandbox.clearLog();
			assert.deepEqual(await testCredential(rest, { ...credentialsFor(sandbox) }), {
				status: 'OK',
				message: 'Connection successful!',
			});
			const sent = apiRequests(sandbox).map(
				(r) => `${r.method} ${r.path} authorized=${String(r.authorized)}`,
			);
			assert.deepEqual(sent, ['GET /api/report/objects authorized=true']);
		},
	);
	await checks.check('a wrong token fails the credential test with a clear message', async () => {
		// Saved first, as the editor saves a credential before it tests it. n8n 1.x writes what a
		// Test obtained into the saved credential of the same id, so testing other data under the
		// sandbox credential's id would overwrite that credential.
		const data = { ...credentialsFor(sandbox), accessToken: 'not-the-token' };
		const saved = await rest.request<{ id: string }>('POST', '/rest/credentials', {
			name: 'Ad Cabinet wrong token',
			type: CREDENTIAL_TYPE,
			data,
		});
		const result = await testCredential(rest, data, saved.id);
		assert.equal(result.status, 'Error');
		// A pasted token is never sent twice: after the 401 the credential refuses it with its own
		// words. n8n 1.x may answer the 401 with its own generic message first.
		const message = n8nVersion.startsWith('1.')
			? /refused the pasted access token \(401\)|invalid or expired|Authorization failed - please check your credentials/
			: /^The Ad Cabinet API refused the pasted access token \(401\)/;
		assert.match(result.message, message);
		assert.doesNotMatch(
			result.message,
			/not-the-token/,
			'the token must not appear in the message',
		);
	});
	await checks.check('every example is in the workflow list', async () => {
		const listed = new Set(
			(await rest.request<Array<{ id: string }>>('GET', '/rest/workflows')).map((w) => w.id),
		);
		assert.deepEqual(
			examples.filter((e) => !listed.has(e.id)).map((e) => e.file),
			[],
		);
	});
}
