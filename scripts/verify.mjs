// `npm run verify`: n8n's own community-package scanner (@n8n/scan-community-package, the check n8n
// runs before listing a package) over what `npm pack` would publish and over the sources, as n8n
// scans a published version. Exits non-zero on any error.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'ad-cabinet-verify-'));
try {
	execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: root,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
	execFileSync('tar', ['xzf', join(work, tarball), '-C', work]);
	const packed = join(work, 'package');
	const results = [
		['published package (npm pack)', await analyzePackage(packed, ['**/*.js', 'package.json'])],
		['sources', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
	];
	let failed = false;
	for (const [what, result] of results) {
		console.log(
			`${result.passed ? 'PASS' : 'FAIL'} scan of the ${what}${result.message ? `: ${result.message}` : ''}`,
		);
		if (result.details) console.log(result.details);
		failed ||= !result.passed;
	}
	process.exit(failed ? 1 : 0);
} finally {
	rmSync(work, { recursive: true, force: true });
}
