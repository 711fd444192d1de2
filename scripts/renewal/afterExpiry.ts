/** The renewal stage's part after the workflows ran: what renews outside a workflow run. */
import { strict as assert } from 'node:assert';
import { runManually } from '../lib/manualRun';
import { CREDENTIAL_TYPE, SANDBOX_CREDENTIAL, type WorkflowNode } from '../lib/workflows';
import { CABINET, type RenewalStage } from './context';
import { afterAnExpiry, renewedOnce } from './trail';
import { MANUAL_NAMES } from './workflows';

/** After an expiry each: a dropdown, the credential Test, a manual run of a multipart write. */
export async function checkAfterExpiry(stage: RenewalStage): Promise<void> {
	const { sb, rest, runtime, checks, credential, manual } = stage;
	await checks.check(
		'a dropdown (Ads → Pixel Event, over REST) renews once and lists the events',
		async () => {
			const { result, trail } = await afterAnExpiry(
				sb,
				'dropdown',
				'/api/pixel_events/',
				async () =>
					await rest.request<Array<{ name: string; value: string }>>(
						'POST',
						'/rest/dynamic-node-parameters/options',
						{
							nodeTypeAndVersion: { name: 'n8n-nodes-ad-cabinet.adCabinetAds', version: 1 },
							path: 'parameters.tracking.pixelEvent',
							methodName: 'getPixelEvents',
							currentNodeParameters: { resource: 'ad', operation: 'create', accountId: CABINET },
							credentials: { [CREDENTIAL_TYPE]: { ...SANDBOX_CREDENTIAL } },
						},
					),
			);
			assert.ok(Array.isArray(result) && result.length > 0, `options: ${JSON.stringify(result)}`);
			assert.equal(trail[0], 'GET /api/pixel_events/ 401');
			assert.ok(renewedOnce(trail), 'one renewal');
			assert.equal(trail[trail.length - 1], 'GET /api/pixel_events/ 200');
		},
	);
	await checks.check('the credential Test (as the dialog sends it) renews and passes', async () => {
		const saved = await rest.request<{ data: Record<string, unknown> }>(
			'GET',
			`/rest/credentials/${SANDBOX_CREDENTIAL.id}?includeData=true`,
		);
		assert.ok(
			!JSON.stringify(saved.data).includes(credential.password),
			'the password is not shown',
		);
		const { result, trail } = await afterAnExpiry(
			sb,
			'credential Test',
			'/api/report/objects',
			async () =>
				await rest.request<{ status: string; message: string }>('POST', '/rest/credentials/test', {
					credentials: { ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data: saved.data },
				}),
		);
		assert.deepEqual(result, { status: 'OK', message: 'Connection successful!' });
		assert.ok(renewedOnce(trail), 'one renewal');
		assert.equal(trail[trail.length - 1], 'GET /api/report/objects 200');
	});
	await checks.check(
		'a manual run of Audiences Create (multipart) renews once and repeats the upload',
		async () => {
			const manualTrigger = manual.workflow.nodes.find(
				(n) => n.name === MANUAL_NAMES.manual,
			) as WorkflowNode;
			const { result, trail } = await afterAnExpiry(
				sb,
				'manual run',
				`/api/advertisement/telegram/${CABINET}/audiences`,
				async () => await runManually(runtime, rest, manual, manualTrigger),
			);
			assert.equal(result.status, 'success', JSON.stringify(result.data?.resultData?.error ?? {}));
			const path = `/api/advertisement/telegram/${CABINET}/audiences`;
			assert.equal(trail[0], `POST ${path} 401`);
			assert.ok(renewedOnce(trail), 'one renewal');
			assert.equal(trail[trail.length - 1], `POST ${path} 201`);
			assert.equal(
				trail.filter((l) => l.startsWith(`POST ${path}`)).length,
				2,
				'sent twice in all',
			);
		},
	);
}
