/**
 * The MCP stage's case of a tool call that must sign in first: a Get ad while the sign-in path is
 * spent and the ad's own path half spent. The credential is switched to Username and Password with
 * no session yet, so the call's first request is a sign-in. The sandbox counts sign-ins towards
 * the rate limit here (the real service's docs say it does not; a service that does is the harder
 * case), and another client of the same account has just used the sign-in path's whole window and
 * half of the ad path's. The call must answer within 25 s at the MCP client, "try again in N s",
 * with nothing sent on the ad's path; the same call after N s signs in and gets the ad.
 */
import { strict as assert } from 'node:assert';
import { apiRequests, credentialsFor, signInCredentialsFor } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import type { N8nRest } from '../lib/rest';
import { TOOL_ANSWER_BOUND_MS, tryAgainSeconds, waitUntil } from '../lib/tryAgain';
import { CREDENTIAL_TYPE, SANDBOX_CREDENTIAL } from '../lib/workflows';
import type { LineContext } from './checks';
import type { McpClient, ToolAnswer } from './client';
import { outcome, type DeadlineFigures } from './deadlineFigures';

const SIGN_IN_PATH = '/api/v2/login';

/** Signs in as another client of the account would; returns its access token. */
async function signInDirectly(sandbox: Sandbox): Promise<{ status: number; token?: string }> {
	const response = await fetch(`${sandbox.baseUrl}${SIGN_IN_PATH}`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: `username=${encodeURIComponent(sandbox.username)}&password=${encodeURIComponent(sandbox.password)}`,
	});
	const body = (await response.json()) as { access_token?: string };
	return { status: response.status, token: body.access_token };
}

/** The credential's data in n8n replaced, as the credential dialog saves it. */
async function saveCredential(rest: N8nRest, data: object): Promise<void> {
	await rest.request('PATCH', `/rest/credentials/${SANDBOX_CREDENTIAL.id}`, {
		name: SANDBOX_CREDENTIAL.name,
		type: CREDENTIAL_TYPE,
		data,
	});
}

export async function signInCheck(
	ctx: LineContext,
	client: McpClient,
	figures: DeadlineFigures,
	rest: N8nRest,
	adId: number,
): Promise<void> {
	const { checks, sandbox } = ctx;
	const limit = sandbox.rateLimiter.settings;
	await checks.check(
		`a Get ad that must sign in while the sign-in path is spent and the ad's path half spent: it answers within ${TOOL_ANSWER_BOUND_MS / 1000} s with "try again in N s" and nothing sent on the ad's path, and the same call after N s signs in and gets the ad`,
		async () => {
			assert.ok(limit, 'the sandbox has no rate limit');
			const adPath = `/api/advertisement/${sandbox.platform}/${adId}`;
			const onAdPath = () =>
				apiRequests(sandbox).filter((r) => r.path.replace(/\/$/, '') === adPath);
			const answers: ToolAnswer[] = [];
			await rest.signIn();
			sandbox.rateLimiter.countRenewals = true;
			try {
				// Another client of the account: the sign-in path's whole window, half the ad path's.
				let token: string | undefined;
				for (let n = 0; n < limit.requests; n++) {
					const signedIn = await signInDirectly(sandbox);
					assert.equal(signedIn.status, 200, `sign-in ${n + 1} of the other client`);
					token = signedIn.token;
				}
				for (let n = 0; n < limit.requests / 2; n++) {
					const read = await fetch(`${sandbox.baseUrl}${adPath}`, {
						headers: { authorization: `Bearer ${String(token)}` },
					});
					assert.equal(read.status, 200, `read ${n + 1} of the other client`);
				}
				await saveCredential(rest, signInCredentialsFor(sandbox));
				const readsBefore = onAdPath().length;
				const call = async () =>
					await client.call('Get_ad', { Ad_ID: String(adId) }, { sdkTimeout: true });
				const first = await call();
				answers.push(first);
				const wait = tryAgainSeconds(first.text);
				assert.ok(wait !== undefined, `not told to try again: ${first.text}`);
				assert.ok(first.ms <= TOOL_ANSWER_BOUND_MS, `${first.ms} ms: ${first.text}`);
				await waitUntil(Date.now() + wait * 1000 + 500);
				// Nothing of the refused call reached the ad's path, then or while it waited.
				assert.equal(onAdPath().length, readsBefore, 'a request of the refused call on the path');
				const again = await call();
				answers.push(again);
				assert.ok(again.ms <= TOOL_ANSWER_BOUND_MS, `${again.ms} ms: ${again.text}`);
				assert.equal(again.isError, false, again.text);
				assert.equal((again.json as Array<{ ad_id?: unknown }>)[0]?.ad_id, adId);
			} finally {
				sandbox.rateLimiter.countRenewals = false;
				await saveCredential(rest, credentialsFor(sandbox));
				figures.cases.push({
					name: "Get ad that must sign in, the sign-in path spent and the ad's path half spent",
					answers: answers.map(outcome),
					slowestMs: answers.length ? Math.max(...answers.map((a) => a.ms)) : 0,
				});
			}
		},
	);
}
