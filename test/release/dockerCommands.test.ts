/**
 * The Docker install in docs/production.md is what the Docker stage runs word for word
 * (scripts/docker/documented.ts): these tests fail when the documented commands and the ones the
 * stage would run differ, or when the block no longer holds the five steps that fit together.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	DOCS_FILE,
	DOCUMENTED_IMAGE,
	documentedLines,
	readDockerInstall,
	withImage,
} from '../../scripts/docker/documented';
import { IMAGE } from '../../scripts/docker/image';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
	name: string;
	version: string;
};
const tarball = `${pkg.name}-${pkg.version}.tgz`;
const docs = readFileSync(DOCS_FILE, 'utf8');
const readmeLines = ['mkdir -p ~/.n8n/nodes', 'cd ~/.n8n/nodes', `npm install ~/${tarball}`];

describe('the documented Docker install', () => {
	it('reads as the five steps, installing the tarball this version packs with the README tarball commands', () => {
		const install = readDockerInstall(documentedLines(docs), tarball);
		expect(install.volume).toBe('n8n_data');
		expect(install.container).toBe('n8n');
		expect(install.lines).toHaveLength(5);
		expect(install.lines[3]).toBe(`docker exec n8n sh -c '${readmeLines.join(' && ')}'`);
	});

	it('is run with only the image name changed', () => {
		const lines = documentedLines(docs);
		const run = lines.map((line) => withImage(line, IMAGE));
		expect(run.filter((line, i) => line !== lines[i])).toEqual([
			lines[1].replace(DOCUMENTED_IMAGE, IMAGE),
		]);
		expect(run.join('\n')).not.toContain(DOCUMENTED_IMAGE);
		expect(run.join('\n').split(IMAGE).join(DOCUMENTED_IMAGE)).toBe(lines.join('\n'));
	});

	it('is refused when a step is lost or the steps no longer fit together', () => {
		const lines = documentedLines(docs);
		const without = (i: number) => lines.filter((_, j) => j !== i);
		expect(() => readDockerInstall(without(4), tarball)).toThrow(
			/exactly one line that restarts the container/,
		);
		expect(() => readDockerInstall(without(2), tarball)).toThrow(/copies the tarball/);
		expect(() => readDockerInstall(lines, `${pkg.name}-9.9.9.tgz`)).toThrow(
			`npm pack makes ${pkg.name}-9.9.9.tgz`,
		);
		const otherVolume = lines.map((l) => l.replace('-v n8n_data:', '-v other:'));
		expect(() => readDockerInstall(otherVolume, tarball)).toThrow(/mounts other, not the volume/);
		const interactive = lines.map((l) =>
			l.replace(/^docker exec n8n sh -c .*$/, 'docker exec -it n8n sh'),
		);
		expect(() => readDockerInstall(interactive, tarball)).toThrow(/installs the tarball inside/);
	});

	it('runs inside the container exactly the README tarball commands', () => {
		const lines = documentedLines(docs);
		const changed = [...readmeLines.slice(0, 2), `npm install --omit=peer ~/${tarball}`];
		expect(() => readDockerInstall(lines, tarball, changed)).toThrow(
			/not the README's tarball commands/,
		);
	});

	it('is missing when the markers are gone', () => {
		expect(() => documentedLines('no block here')).toThrow(/docker-install:start/);
	});
});
