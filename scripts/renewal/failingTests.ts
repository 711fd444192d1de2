/** The renewal stage's credential Tests that fail on purpose, each naming the step that failed. */
import { strict as assert } from 'node:assert';
import { readLog } from '../lib/logs';
import { CREDENTIAL_TYPE, SANDBOX_CREDENTIAL } from '../lib/workflows';
import type { RenewalStage } from './context';
import { sleep } from './trail';

/** Where the log stood before the Tests that fail on purpose: the checks of what ran before leave them out. */
export interface FailingTestsFrom {
	request: number;
	mainLogEntries: number;
	failedLoginsBefore: number;
}

export async function checkFailingTests(
	stage: RenewalStage,
	mainLog: string,
): Promise<FailingTestsFrom> {
	const { sb, rest, runtime, checks, credential } = stage;
	// The Tests that follow fail on purpose: the checks of what ran before leave them out.
	await sleep(1_000); // n8n's log file catches up
	const failingTestsFrom = {
		request: sb.requests.length,
		mainLogEntries: readLog(mainLog).length,
		failedLoginsBefore: sb.sessions.counts.failedLogins,
	};
	console.log('\n▶ The credential Test names the step that failed');
	const testWith = async (data: Record<string, unknown>) =>
		await rest.request<{ status: string; message: string }>('POST', '/rest/credentials/test', {
			// As the dialog does: the saved credential's ID with the values typed in it.
			credentials: { ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data },
		});
	const shows = (what: string, result: { status: string; message: string }) =>
		console.log(`      ${what}: ${result.status}, "${result.message}"`);
	await checks.check(
		'a wrong password: the sign-in failed, check Username and Password',
		async () => {
			const result = await testWith({ ...credential, password: 'not-the-password-3c1' });
			shows('wrong password', result);
			assert.equal(result.status, 'Error');
			assert.match(
				result.message,
				/^Sign-in to the Ad Cabinet API failed: the API refused the username or password \(401: Incorrect username or password\)\. Check Username and Password/,
			);
			assert.doesNotMatch(result.message, /not-the-password-3c1/);
		},
	);
	await checks.check('no API at the Base URL: the sign-in names the Base URL', async () => {
		const result = await testWith({
			...credential,
			baseUrl: `${sb.baseUrl.replace(/\/base$/, '')}/nothing-here`,
		});
		shows('wrong Base URL', result);
		assert.equal(result.status, 'Error');
		assert.match(
			result.message,
			/^Sign-in to the Ad Cabinet API failed: \S+\/nothing-here\/api\/v2\/login answered 404, so there is no Ad Cabinet API at this Base URL/,
		);
	});
	await checks.check('a refused token: the read answered 401', async () => {
		const result = await testWith({
			...credential,
			authMethod: 'accessToken',
			accessToken: 'not-a-token-77',
		});
		shows('wrong access token', result);
		assert.equal(result.status, 'Error');
		// n8n 1.x answers a 401 with its own words before the credential's rules apply.
		assert.match(
			result.message,
			runtime.version.startsWith('1.')
				? /invalid or expired|Authorization failed - please check your credentials/
				: // The credential's rule for a 401, or the package's own refusal of a pasted token,
					// which is not sent twice.
					/^The access token is invalid or expired: the API answered 401 Unauthorized|^The Ad Cabinet API refused the pasted access token \(401\)/,
		);
		assert.doesNotMatch(result.message, /not-a-token-77/);
	});
	return failingTestsFrom;
}
