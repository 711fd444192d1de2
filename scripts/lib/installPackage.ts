/**
 * Puts this package where n8n's community-node installer puts one:
 * `$N8N_USER_FOLDER/.n8n/nodes/node_modules/<name>`, listed in `.n8n/nodes/package.json`.
 *
 * - 'pack' (the end-to-end stage) does what Settings → Community Nodes → Install does in n8n 2.41:
 *   `npm pack`, unpack into that folder, drop dev/peer/optional dependencies from its package.json,
 *   and install runtime dependencies (we have none). Only the files npm publishes are there, and
 *   `n8n-workflow` resolves to n8n's own copy, as for a user.
 * - 'link' (`npm run dev`) symlinks that folder to the repository, so a rebuild of dist/ is what n8n
 *   loads on its next start.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './runtime';

export interface PackageJson {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	n8n: { nodes: string[]; credentials: string[] };
}

export function repoPackageJson(): PackageJson {
	return JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
}

export function installPackage(userFolder: string, mode: 'pack' | 'link'): string {
	const pkg = repoPackageJson();
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', pkg.name);
	mkdirSync(join(nodesDir, 'node_modules'), { recursive: true });
	rmSync(target, { recursive: true, force: true });
	if (mode === 'link') {
		symlinkSync(REPO_ROOT, target, 'dir');
	} else {
		const packDir = mkdtempSync(join(tmpdir(), 'ad-cabinet-pack-'));
		try {
			const out = execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], {
				cwd: REPO_ROOT,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe'],
				timeout: 120_000,
			});
			const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
			mkdirSync(target, { recursive: true });
			execFileSync('tar', ['-xzf', join(packDir, filename), '-C', target, '--strip-components=1']);
		} finally {
			rmSync(packDir, { recursive: true, force: true });
		}
		const packageJsonPath = join(target, 'package.json');
		const installed = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as PackageJson;
		delete installed.devDependencies;
		delete installed.peerDependencies;
		delete installed.optionalDependencies;
		writeFileSync(packageJsonPath, JSON.stringify(installed, null, 2));
		if (Object.keys(installed.dependencies ?? {}).length > 0) {
			throw new Error(`${pkg.name} must have no runtime dependencies (n8n would npm install them)`);
		}
	}
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [pkg.name]: pkg.version } },
			null,
			2,
		),
	);
	return target;
}
