/**
 * `npm run demo`: starts the sandbox API, runs every example workflow in examples/ through n8n's
 * engine in-process, prints what each node produced and writes any files the workflows made to
 * demo-output/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Sandbox } from '../sandbox';
import { itemsOf, listExamples, runExample } from '../harness';
import { signInCredentialsFor } from '../harness/sandbox';

const OUTPUT_DIR = join(__dirname, '..', 'demo-output');

async function main(): Promise<void> {
	// The real service's form, with its rate limit.
	const sandbox = await Sandbox.start({ platform: 'telegram' });
	console.log(`Sandbox API on ${sandbox.baseUrl} (client API ${sandbox.clientApiUrl})`);
	// Username and password, as a user of the real service fills them in: n8n's engine signs in
	// once and every example uses (and renews) the token it obtained.
	const credentials = signInCredentialsFor(sandbox);
	console.log(`Credential: username ${credentials.username} and its password\n`);
	mkdirSync(OUTPUT_DIR, { recursive: true });
	let failures = 0;
	try {
		for (const example of listExamples()) {
			const started = Date.now();
			const result = await runExample(example, credentials);
			console.log(`▶ ${example.name} (${example.file}) — ${Date.now() - started} ms`);
			for (const name of result.order) {
				const run = result.nodes[name];
				const items = itemsOf(result, name);
				console.log(
					`   ${name}: ${run.error ? `ERROR ${run.error.message}` : `${items.length} item(s)`}`,
				);
				for (const item of items) {
					for (const binary of Object.values(item.binary ?? {})) {
						const file = join(OUTPUT_DIR, binary.fileName ?? `${name}.bin`);
						const bytes = Buffer.from(binary.data, 'base64');
						writeFileSync(file, bytes);
						if (!/^text\//.test(binary.mimeType) && !file.endsWith('.csv')) {
							console.log(`     wrote ${file} (${bytes.length} bytes, ${binary.mimeType})`);
							continue;
						}
						const lines = bytes.toString('utf8').split('\n').filter(Boolean);
						console.log(`     wrote ${file} (${lines.length} lines)`);
						console.log(
							lines
								.slice(0, 3)
								.map((line) => `       ${line.slice(0, 140)}`)
								.join('\n'),
						);
					}
				}
			}
			if (result.error) {
				failures++;
				console.log(`   workflow failed: ${result.error.message}`);
			}
			console.log('');
		}
		const auth = sandbox.sessions.counts;
		console.log(
			`Sign-ins: ${auth.logins} (${auth.failedLogins} refused), token refreshes: ${auth.refreshes}`,
		);
	} finally {
		await sandbox.stop();
	}
	if (failures) {
		console.error(`${failures} example workflow(s) failed`);
		process.exit(1);
	}
	console.log('All example workflows ran against the sandbox.');
}

void main();
