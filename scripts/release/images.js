// The README's pictures stay true to what they show. `npm run screenshots` records, for each
// picture in docs/images/, the hash of what it shows when it is made: the example workflow file of
// a canvas, the node description n8n serves for a node's panel (from dist/). `release:check` fails
// when a picture has no record or what it shows has changed since: then run `npm run screenshots`.
'use strict';

const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const MANIFEST = join('docs', 'images', 'manifest.json');

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** What a source is now: a file's text, or a node type's description as n8n serves it. */
function currentHash(root, source) {
	if (source.file) {
		const file = join(root, source.file);
		return existsSync(file) ? sha256(readFileSync(file)) : undefined;
	}
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	const built = pkg.n8n.nodes.find((path) => path.endsWith(`/${source.node}.node.js`));
	if (!built || !existsSync(join(root, built))) return undefined;
	const Type = Object.values(require(join(root, built)))[0];
	return sha256(JSON.stringify(new Type().description));
}

/** The record of one picture: its sources, each with its hash now. */
function recordImage(root, image, sources) {
	const file = join(root, MANIFEST);
	const manifest = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
	manifest[image] = sources.map((source) => ({ ...source, sha256: currentHash(root, source) }));
	const sorted = Object.fromEntries(
		Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)),
	);
	writeFileSync(file, `${JSON.stringify(sorted, null, '\t')}\n`);
}

/** Pictures without a record, or whose sources changed since they were made. */
function staleImages(root) {
	const file = join(root, MANIFEST);
	const manifest = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
	const problems = [];
	const images = readdirSync(join(root, 'docs', 'images')).filter((name) => name.endsWith('.png'));
	for (const image of images) {
		const sources = manifest[image];
		if (!sources) {
			problems.push(`docs/images/${image} has no record in ${MANIFEST}: run npm run screenshots`);
			continue;
		}
		for (const source of sources) {
			if (currentHash(root, source) !== source.sha256) {
				const what = source.file ?? `the ${source.node} node's description`;
				problems.push(
					`docs/images/${image} is older than ${what}, which it shows: run npm run screenshots`,
				);
			}
		}
	}
	return problems;
}

module.exports = { MANIFEST, recordImage, staleImages };
