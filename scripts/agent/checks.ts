/**
 * The agent stage's checks on what the scripted model received from our tools and on what reached
 * the sandbox, as [name, assertion] pairs run in order.
 */
import { strict as assert } from 'node:assert';
import { NodeHelpers, type INode, type INodeTypeDescription } from 'n8n-workflow';
import { nodeTypes, PACKAGE_NAME } from '../../harness';
import type { Sandbox } from '../../sandbox';
import { itemsOf, type RunData, type WorkflowJson } from '../lib/workflows';
import { errorOf, finalAnswer, rowsOf, AUDIENCE_SIZE, type Transcript } from './conversation';
import type { ModelServer } from '../lib/modelServer';
import { SECRET, type SecretServer } from './secretServer';
import { AGENT_NODE, DE_CABINET, toolNameOf, TOOLS, UZ_CABINET, type ToolName } from './workflow';

/** A 1x1 PNG: the image the model server serves for the Media tool to download. */
export const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);

/** The description our node gives the tool variant of this operation (its toolDescription default). */
function expectedDescription(name: ToolName): string {
	const tool = TOOLS[name];
	const plain = nodeTypes().getByNameAndVersion(
		`${PACKAGE_NAME}.${tool.type.replace(/Tool$/, '')}`,
	).description;
	const asTool: INodeTypeDescription = { ...plain, name: `${plain.name}Tool` };
	const node = { parameters: {}, typeVersion: 1 } as unknown as INode;
	const parameters = NodeHelpers.getNodeParameters(
		asTool.properties,
		{ resource: tool.resource, operation: tool.operation },
		true,
		false,
		node,
		asTool,
	);
	return String(parameters?.toolDescription ?? '');
}

/** The stage's checks, as [name, assertion] pairs run in order. */
export function checksOf(
	transcript: Transcript,
	sandbox: Sandbox,
	model: ModelServer,
	secret: SecretServer,
	run: RunData,
	workflow: WorkflowJson,
): Array<[string, () => void]> {
	const seen = transcript.seen;
	const apiCalls = () => sandbox.requests.filter((r) => r.api === 'base' || r.api === 'client');
	return [
		[
			'the model was asked 14 times, by script, with nothing unexpected',
			() => {
				assert.deepEqual(model.problems, []);
				assert.equal(model.requests.length, 14);
			},
		],
		[
			'the model got the nine tools, each described by its operation (limits, IDs, returns)',
			() => {
				const byName = new Map(transcript.tools.map((t) => [t.function.name, t.function]));
				assert.deepEqual([...byName.keys()].sort(), Object.keys(TOOLS).map(toolNameOf).sort());
				for (const name of Object.keys(TOOLS) as ToolName[]) {
					const fn = byName.get(toolNameOf(name));
					assert.equal(fn?.description, expectedDescription(name), `${name}: description`);
					assert.doesNotMatch(fn?.description ?? '', /spec \d/);
					const properties = Object.keys((fn?.parameters?.properties ?? {}) as object).sort();
					assert.deepEqual(properties, [...TOOLS[name].keys].sort(), `${name}: $fromAI keys`);
				}
			},
		],
		[
			'a refused input: the message names the rule, the value and that nothing was sent; the next call succeeds',
			() => {
				const message = errorOf(seen.refusedInput.results);
				assert.match(
					message,
					/^Period From: with the unit "hour" the period may span at most 2 days; this one spans 4\.0 days: shorten the period or use the unit day\. Nothing was sent to the API\.$/,
				);
				assert.equal(seen.refusedInput.apiRequests, 0, 'no request before the refusal');
				const rows = rowsOf(seen.statsRows.results);
				assert.ok(
					rows.length === 5,
					`5 rows (the Limit), got ${rows.length}: ${JSON.stringify(seen.statsRows.results).slice(0, 300)}`,
				);
				for (const row of rows) {
					assert.deepEqual(Object.keys(row), [
						'period_date',
						'exchanged_spent',
						'exchange_currency',
						'views',
						'clicks',
						'actions',
						'ctr',
						'cpc',
						'cpm',
						'cpa',
						'cvr',
					]);
					assert.match(String(row.period_date), /T\d\d:00:00/);
				}
			},
		],
		[
			'an API 400: quoted once, says what to set and where to find it, and that nothing changed; the fixed call creates the ad',
			() => {
				const message = errorOf(seen.apiRefusal.results);
				assert.match(message, /^The Ad Cabinet API refused the request with 400: kktu_ids: /);
				assert.equal(message.split('kktu_ids:').length, 2, `API text once: ${message}`);
				assert.match(message, /set "KKTU Category" to one third-level category/);
				assert.match(message, /nothing was changed and sending it again after the fix is safe\.$/);
				assert.doesNotMatch(message, /may have (reached|taken)/);
				assert.ok(transcript.kktuCode, 'a KKTU code from the category tool');
				const created = rowsOf(seen.adCreated.results)[0];
				assert.equal(errorOf(seen.adCreated.results), '', JSON.stringify(seen.adCreated.results));
				const posts = apiCalls().filter(
					(r) => r.method === 'POST' && /^\/api\/advertisement\/[^/]+\/?$/.test(r.path),
				);
				assert.equal(
					posts.length,
					2,
					`one refused create, one created: ${posts.map((r) => `${r.path} ${r.status}`).join(', ')}`,
				);
				const body = posts[1].body as { kktu_ids?: string[]; title?: string };
				assert.equal(body.title, 'Spring sale');
				assert.equal(body.kktu_ids?.length, 1);
				assert.ok(created && Object.keys(created).length > 0, 'the created ad came back');
			},
		],
		[
			'Media Upload from a URL: a page is refused before any upload; the image is downloaded and uploaded',
			() => {
				const refusal = errorOf(seen.notAnImage.results);
				assert.match(
					refusal,
					/^File URL: must point at a JPEG, PNG, GIF or WebP image or an MP4 video, but the server sent text\/html/,
				);
				assert.match(
					refusal,
					/Nothing was sent to the Ad Cabinet API, so running again is safe\.$/,
				);
				const uploaded = rowsOf(seen.mediaUploaded.results)[0] ?? {};
				assert.match(String(uploaded.media_token), /^media_/);
				assert.equal(uploaded.content_type, 'image/png');
				assert.deepEqual(model.downloads, ['page.html', 'banner.png']);
				const [stored] = sandbox.data.mediaUploads;
				assert.equal(sandbox.data.mediaUploads.length, 1);
				assert.equal(stored.media_token, uploaded.media_token);
				assert.equal(stored.size, PNG.length);
				assert.equal(stored.filename, 'banner.png');
			},
		],
		[
			'Media Upload with default settings: a File URL on 127.0.0.1 is refused without any request to that port, and the refusal quotes nothing from it',
			() => {
				const refusal = errorOf(seen.privateRefused.results);
				assert.equal(
					refusal,
					`File URL: must be an address on the public internet, but it is a loopback address, so nothing was downloaded from it. Use a public address, or turn on Allow Private Network Addresses for a file on your own network (got "${secret.url}"). Nothing was sent to the Ad Cabinet API, so running again is safe.`,
				);
				assert.deepEqual(secret.requests, [], 'no request reached the port');
				const everything = JSON.stringify(seen.privateRefused.results);
				for (const part of SECRET.split(' '))
					assert.ok(!everything.includes(part), 'nothing it serves');
				assert.equal(
					seen.privateRefused.apiRequests,
					seen.mediaUploaded.apiRequests,
					'no API request for the refused call',
				);
				assert.equal(sandbox.data.mediaUploads.length, 1, 'only the image was uploaded');
			},
		],
		[
			`Audiences Create from a list: ${AUDIENCE_SIZE} numbers in one parameter become one hashed audience`,
			() => {
				const created = rowsOf(seen.audienceCreated.results)[0] ?? {};
				assert.equal(
					errorOf(seen.audienceCreated.results),
					'',
					JSON.stringify(seen.audienceCreated.results).slice(0, 500),
				);
				assert.equal(created.title, 'Hotel guests');
				assert.equal((created.report as { valid?: number } | undefined)?.valid, AUDIENCE_SIZE);
				const [upload] = sandbox.data.audienceUploads;
				assert.equal(sandbox.data.audienceUploads.length, 1);
				assert.equal(upload.accountId, UZ_CABINET);
				assert.equal(upload.entries.length, AUDIENCE_SIZE);
				assert.ok(
					upload.entries.every((entry) => /^[0-9a-f]{64}$/.test(entry)),
					'SHA-256 hashes only',
				);
			},
		],
		[
			'a successful list: the pixel events of the cabinet the model named',
			() => {
				const rows = rowsOf(seen.pixelRows.results);
				assert.ok(rows.length > 0);
				for (const row of rows) {
					assert.deepEqual(Object.keys(row), [
						'id',
						'tg_event_id',
						'title',
						'type',
						'status',
						'ads_count',
					]);
				}
				const expected = sandbox.data.pixelEvents
					.filter((e) => e.account_id === DE_CABINET)
					.map((e) => String(e.id));
				assert.deepEqual(rows.map((row) => String(row.id)).sort(), expected.sort());
			},
		],
		[
			'a refused pasted access token: the message says to paste a new one, that it is not sent again, and that running again is safe',
			() => {
				assert.equal(
					errorOf(seen.unauthorized.results),
					'The Ad Cabinet API refused the pasted access token (401): it is wrong, expired (it lasts 1 hour on the real service) or revoked, and n8n does not send the same token again. Paste a new token into Access Token in the Ad Cabinet API credential, or switch Sign-in Method to Username and Password so that n8n renews the token by itself. Then run again; the request was not performed, so running it again is safe.',
				);
			},
		],
		[
			`a cabinet ID taken from the cabinet list: the Pixel Events tool asked for that cabinet, and the final answer lists its events`,
			() => {
				const cabinets = rowsOf(seen.cabinetRows.results);
				assert.equal(
					errorOf(seen.cabinetRows.results),
					'',
					JSON.stringify(seen.cabinetRows.results),
				);
				const permitted = sandbox.data.cabinets.filter((c) => c.permitted);
				assert.deepEqual(
					cabinets.map((row) => [row.account_id, row.account_name]),
					permitted.map((c) => [c.account_id, c.name]),
					'the cabinets the model received',
				);
				const picked = transcript.pickedCabinet;
				assert.ok(picked, 'the model picked a cabinet from the list');
				assert.match(picked.id, /^ACC\d+$/, 'a cabinet ID of the real service');
				assert.ok(
					cabinets.some((row) => row.account_id === picked.id && row.account_name === picked.name),
					`${picked.id} is in the list the model received`,
				);
				const calls = apiCalls();
				const list = calls.filter(
					(r) => r.method === 'GET' && r.path === '/api/accounts/telegram/',
				);
				assert.equal(list.length, 1, 'one cabinet list request, on the real service path');
				const events = calls.filter(
					(r) =>
						r.method === 'GET' && /^\/api\/pixel_events\/?$/.test(r.path) && r.seq > list[0].seq,
				);
				assert.deepEqual(
					events.map((r) => [r.query.account_id, r.status]),
					[[picked.id, 200]],
					'the pixel event request after the list',
				);
				const expected = sandbox.data.pixelEventsOf(picked.id);
				const rows = rowsOf(seen.pickedCabinetEvents.results);
				assert.deepEqual(
					rows.map((row) => String(row.id)),
					expected.map((event) => event.id),
					'the events the model received',
				);
				assert.ok(rows.length > 0, 'the cabinet has pixel events');
				assert.equal(
					itemsOf(run, AGENT_NODE)?.[0]?.json.output,
					finalAnswer(picked, expected),
					"the agent's answer",
				);
			},
		],
		[
			"the run finished with the agent's answer; every tool kept n8n's default error setting",
			() => {
				assert.equal(
					run.status,
					'success',
					JSON.stringify(run.data.resultData.error ?? {}).slice(0, 500),
				);
				const answer = itemsOf(run, AGENT_NODE)?.[0]?.json.output;
				assert.match(String(answer), /^Done:/);
				for (const node of workflow.nodes)
					assert.equal((node as { onError?: string }).onError, undefined, node.name);
			},
		],
	];
}
