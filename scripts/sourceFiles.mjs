// The TypeScript files of the repository's source folders, as `npm run lint`'s circle check
// (check-cycles.mjs) and `npm run check:exports` (check-exports.mjs) both read them.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FOLDERS = ['nodes', 'credentials', 'sandbox', 'harness', 'scripts', 'bench', 'test'];

function listTs(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((entry) => {
		if (entry === 'node_modules' || entry.startsWith('.')) return [];
		const path = join(dir, entry);
		if (statSync(path).isDirectory()) return listTs(path);
		return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [path] : [];
	});
}

export const files = FOLDERS.flatMap((folder) => listTs(join(ROOT, folder)));
export const known = new Set(files);
export const rel = (file) => relative(ROOT, file).split(sep).join('/');
