/** n8n's own logs, read after the run: the package loaded everywhere, quietly, offline. */
import { strict as assert } from 'node:assert';
import type { Checks } from '../lib/checks';
import type { PackageJson } from '../lib/installPackage';
import { consoleProblems, loadedNodeCount, networkAttempts, packageProblems } from '../lib/logs';
import type { N8nSession } from '../lib/session';

/** The credential Test's refusal of the wrong pasted token that the stage sends on purpose. */
const PROVOKED = /The Ad Cabinet API refused the pasted access token \(401\)/;

export async function checkLogs(
	checks: Checks,
	session: N8nSession,
	pkg: PackageJson,
): Promise<void> {
	const logs = session.allEntries();
	const nodeCount = pkg.n8n.nodes.length;
	await checks.check(
		`n8n loaded all ${nodeCount} nodes of ${pkg.name} in every command that runs workflows`,
		() => {
			const runners = logs.filter(
				({ log }) => log.label.startsWith('execute') || log.label === 'start',
			);
			assert.ok(runners.length > 0, 'no execute or start command ran');
			for (const { log, entries } of runners) {
				assert.equal(
					loadedNodeCount(entries, pkg.name),
					nodeCount,
					`${log.label} (${log.logFile})`,
				);
			}
		},
	);
	await checks.check(`no warning or error about ${pkg.name} in any n8n log`, () => {
		const problems = logs.flatMap(({ log, entries }) =>
			[...packageProblems(entries, pkg.name), ...consoleProblems(log.consoleFile, pkg.name)]
				// The stage tests a credential with a wrong pasted token on purpose, and n8n logs that
				// Test's failure; any other line about the package is a problem.
				.filter((problem) => !PROVOKED.test(problem))
				.map((problem) => `${log.label}: ${problem}`),
		);
		assert.deepEqual(problems, []);
	});
	await checks.check('n8n looked up no host name (everything stayed on 127.0.0.1)', () => {
		const attempts = logs.flatMap(({ log, entries }) =>
			networkAttempts(entries).map((attempt) => `${log.label}: ${attempt}`),
		);
		assert.deepEqual(attempts, []);
	});
}
