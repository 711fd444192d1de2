import { existsSync, readdirSync } from 'fs';
import { join, relative } from 'path';

/**
 * The transport, the token's life and the statistics pull are where a fault reaches every node:
 * each of their files has a unit test at the mirrored path
 * (nodes/shared/x/y.ts -> test/unit/shared/x/y.test.ts), so a new file cannot arrive untested.
 */
const ROOT = join(__dirname, '..', '..');
const MIRRORED = ['transport', 'auth', 'stats'];

function sources(folder: string): string[] {
	const dir = join(ROOT, 'nodes', 'shared', folder);
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? sources(join(folder, entry.name))
			: entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')
				? [join(folder, entry.name)]
				: [],
	);
}

describe('every file of nodes/shared/{transport,auth,stats} has its mirrored unit test', () => {
	test.each(MIRRORED)('nodes/shared/%s', (folder) => {
		const files = sources(folder);
		expect(files.length).toBeGreaterThan(0);
		const missing = files
			.map((file) => join(ROOT, 'test', 'unit', 'shared', file.replace(/\.ts$/, '.test.ts')))
			.filter((test) => !existsSync(test))
			.map((test) => relative(ROOT, test));
		expect(missing).toEqual([]);
	});
});
