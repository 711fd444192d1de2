/**
 * `npm run test:agent`: our nodes as the tools of n8n's AI Agent, in real n8n.
 *
 *  1. n8n from the cache and the packed package in a fresh user folder (as the e2e stage).
 *  2. The sandbox API and a scripted OpenAI-compatible model on 127.0.0.1 (no network). The model
 *     server also serves an image and a web page for the Media tool to download; a "secret"
 *     service on another port counts every request that reaches it.
 *  3. One workflow: Manual Trigger → AI Agent, OpenAI Chat Model (credential URL = the scripted
 *     server), nine tool nodes with `$fromAI` parameters and n8n's default settings, except that
 *     "Upload image" allows private network addresses (its image is on 127.0.0.1; its note says so).
 *  4. `n8n execute`: the model calls the tools by script (conversation.ts) and records what it got.
 *  5. Checks on what the model received: the tool list and descriptions, rows, refusals whose words
 *     let the next call succeed, a 401 that says to update the credential, an image from a URL,
 *     a URL on 127.0.0.1 refused without a request to it, an audience from a list, a cabinet ID
 *     read from the cabinet list and used for its pixel events; and on what reached the sandbox.
 *
 * Flags: --keep (keep the temp folder with n8n's user folder, logs and the model's requests).
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { credentialsFor } from '../../harness/sandbox';
import { nodeTypes, PACKAGE_NAME } from '../../harness';
import { Checks } from '../lib/checks';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import { itemsOf, type Example, type RunData, type WorkflowJson } from '../lib/workflows';
import { NodeHelpers, type INode, type INodeTypeDescription } from 'n8n-workflow';
import {
	conversation,
	errorOf,
	finalAnswer,
	rowsOf,
	ASKED_CABINET,
	AUDIENCE_SIZE,
	type Transcript,
} from './conversation';
import { ModelServer } from './modelServer';
import { SECRET, SecretServer } from './secretServer';
import {
	agentCredentials,
	agentWorkflow,
	AGENT_NODE,
	toolNameOf,
	TOOLS,
	UZ_CABINET,
	DE_CABINET,
	type ToolName,
} from './workflow';

const args = new Set(process.argv.slice(2));

/** A 1x1 PNG. */
const PNG = Buffer.from(
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
function checksOf(
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
			'a 401: the message says what to change in the Ad Cabinet API credential for each sign-in method',
			() => {
				assert.equal(
					errorOf(seen.unauthorized.results),
					'The Ad Cabinet API refused the access token (401: Could not validate credentials). Open the Ad Cabinet API credential: with Sign-in Method Access Token, paste a new token (or switch to Username and Password, which renews the token by itself); with the other methods n8n already renewed the token once, so check that Base URL and Client API URL are addresses of the same service. Then run again.',
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

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();

	console.log('\n▶ n8n');
	const setUp = setUpStage('agent', started);
	if (!setUp) return 1;
	const { work } = setUp;

	const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
	// The real service's form, as a credential without a platform speaks; no rate limit to wait on.
	const sandbox = await Sandbox.start({
		platform: 'telegram',
		rateLimit: 'off',
		now,
		clock: 'frozen',
	});
	const files = {
		'banner.png': { type: 'image/png', body: PNG },
		'page.html': {
			type: 'text/html; charset=utf-8',
			body: '<!doctype html><title>Spring sale</title>',
		},
	};
	let model: ModelServer | undefined;
	const secret = new SecretServer();
	try {
		model = new ModelServer(files);
		await model.start();
		await secret.start();
		const { script, transcript } = conversation(sandbox, now, {
			page: model.fileUrl('page.html'),
			image: model.fileUrl('banner.png'),
			secret: secret.url,
		});
		model.script = script;
		console.log(`  sandbox API on ${sandbox.baseUrl}, scripted model on ${model.apiUrl}`);

		const session = await stageSession(setUp);
		console.log('\n▶ Import');
		await checks.check('the sandbox, expired-token and model credentials import', async () => {
			const file = join(work, 'agent-credentials.json');
			writeFileSync(
				file,
				JSON.stringify(agentCredentials(credentialsFor(sandbox), model?.apiUrl ?? ''), null, 2),
			);
			const entries = await session.command(
				'import-credentials',
				['import:credentials', `--input=${file}`],
				120_000,
			);
			assert.ok(
				entries.some((e) => e.message.startsWith('Successfully imported 3 credentials')),
				'n8n reported the import',
			);
		});
		const example: Example = {
			file: 'agent-tools.json',
			id: 'agentTools00001',
			workflow: agentWorkflow(
				'agentTools00001',
				`Report hourly statistics, then launch the spring campaign, and list the pixel events of the ${ASKED_CABINET} cabinet.`,
			),
		};
		await checks.check('the agent workflow imports', async () => {
			await session.importExamples([example]);
		});

		console.log('\n▶ The agent run (n8n execute)');
		const t = Date.now();
		const { run } = await session.execute(example, 300_000);
		console.log(
			`  ran in ${seconds(Date.now() - t)}; the model was asked ${model.requests.length} times`,
		);
		writeFileSync(join(work, 'model-requests.json'), JSON.stringify(model.requests, null, 2));
		for (const [name, assertion] of checksOf(
			transcript,
			sandbox,
			model,
			secret,
			run,
			example.workflow,
		)) {
			await checks.check(name, assertion);
		}
	} catch (error) {
		checks.fail('agent stage', (error as Error).stack ?? String(error));
	} finally {
		await model?.stop();
		await secret.stop();
		await sandbox.stop();
	}

	return finishStage({
		stage: 'agent',
		started,
		checks,
		ranIn: `n8n ${setUp.runtime.version} with the AI Agent`,
		work,
		holds: "n8n's user folder, logs and the model's requests (model-requests.json)",
		keep: args.has('--keep'),
	});
}

runStage(main);
