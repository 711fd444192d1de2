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
 *  6. A second run under the real rate limit (burst.ts): five CPM changes of one ad spend its path,
 *     then 12 Get ad calls at once; each answers within 25 s, with the ad or "try again in N s",
 *     and the agent's final answer carries that wait.
 *
 * Flags: --keep (keep the temp folder with n8n's user folder, logs and the model's requests).
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Sandbox } from '../../sandbox';
import { credentialsFor } from '../../harness/sandbox';
import { Checks } from '../lib/checks';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import type { Example } from '../lib/workflows';
import { checksOf, PNG } from './checks';
import { conversation, ASKED_CABINET } from './conversation';
import { ModelServer } from '../lib/modelServer';
import { SecretServer } from './secretServer';
import { agentCredentials, agentWorkflow } from './workflow';
import { burstChecks, burstScript, burstWorkflow, limitSandbox, pacedCredential } from './burst';

const args = new Set(process.argv.slice(2));

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
		const burst = burstScript(sandbox);
		// The burst run's steps follow the first run's: the model server counts its calls across runs.
		model.script = [...script, ...burst.steps];
		console.log(`  sandbox API on ${sandbox.baseUrl}, scripted model on ${model.apiUrl}`);

		const session = await stageSession(setUp);
		console.log('\n▶ Import');
		await checks.check('the sandbox, expired-token and model credentials import', async () => {
			await session.importCredentials(
				[
					...agentCredentials(credentialsFor(sandbox), model?.apiUrl ?? ''),
					pacedCredential(credentialsFor(sandbox)),
				],
				'agent-credentials.json',
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
		const burstExample: Example = {
			file: 'agent-burst.json',
			id: 'agentBurst00001',
			workflow: burstWorkflow(),
		};
		await checks.check('the agent workflows import', async () => {
			await session.importExamples([example, burstExample]);
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

		console.log('\n▶ The agent under the rate limit (n8n execute)');
		limitSandbox(sandbox);
		const asked = model.requests.length;
		const burstRun = await session.execute(burstExample, 300_000);
		for (const [name, assertion] of burstChecks(
			burst.transcript,
			sandbox,
			model,
			asked,
			burstRun.run,
		)) {
			await checks.check(name, assertion);
		}
		writeFileSync(join(work, 'model-requests.json'), JSON.stringify(model.requests, null, 2));
		console.log(
			`  Get ad calls as the model received them: ${burst.transcript.results.map((r) => r.slice(0, 100)).join(' | ')}`,
		);
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
