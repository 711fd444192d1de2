/**
 * The Docker install as docs/production.md#docker tells people to type it: the ```sh block between
 * `<!-- docker-install:start -->` and `<!-- docker-install:end -->`. The Docker stage runs these
 * lines word for word, with one change: n8n's image name becomes the image the stage built (no
 * registry is reachable to pull n8n's own). Each line is matched to the step it must perform, so a
 * block that loses a step, or whose steps no longer fit together (the volume, the container's name,
 * the tarball's name), is refused before anything runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeTarballCommands } from '../lib/installPackage';
import { REPO_ROOT } from '../lib/runtime';

const MARKERS = { start: '<!-- docker-install:start -->', end: '<!-- docker-install:end -->' };
export const DOCS_FILE = join(REPO_ROOT, 'docs', 'production.md');
/** The image the documented commands name. */
export const DOCUMENTED_IMAGE = 'docker.n8n.io/n8nio/n8n';

export interface DockerInstall {
	/** Every line as written. */
	lines: string[];
	volume: string;
	container: string;
	tarball: string;
	/** The `docker run` line, which the stage runs again for the new container on the same volume. */
	runLine: string;
}

/** The ```sh lines of the block in `text` (docs/production.md by default). */
export function documentedLines(text = readFileSync(DOCS_FILE, 'utf8')): string[] {
	const start = text.indexOf(MARKERS.start);
	const end = text.indexOf(MARKERS.end, start);
	if (start < 0 || end < 0) {
		throw new Error(`docs/production.md has no ${MARKERS.start} … ${MARKERS.end} block`);
	}
	const fence = /```(?:sh|bash|shell)\n([\s\S]*?)```/.exec(text.slice(start, end));
	return (fence?.[1] ?? '').split('\n').filter((line) => line.trim() !== '');
}

function only(lines: string[], pattern: RegExp, step: string): RegExpExecArray {
	const found = lines.map((line) => pattern.exec(line)).filter((m) => m !== null);
	if (found.length !== 1) {
		throw new Error(
			`the documented Docker install must have exactly one line that ${step}; ${found.length} match ${pattern}`,
		);
	}
	return found[0];
}

/**
 * The documented lines read as the five steps: a named volume, a container with it at
 * /home/node/.n8n, the tarball copied in, installed inside by the README's own tarball commands
 * (`tarballCommands`, joined by &&), the container restarted. `tarball` is the file `npm pack`
 * makes of this version.
 */
export function readDockerInstall(
	lines: string[],
	tarball: string,
	tarballCommands = readmeTarballCommands(),
): DockerInstall {
	const volume = only(lines, /^docker volume create (\S+)$/, 'creates the volume')[1];
	const run = only(
		lines,
		/^docker run -d --name (\S+) .*-v (\S+):\/home\/node\/\.n8n (\S+)$/,
		'starts the container with the volume at /home/node/.n8n',
	);
	const [runLine, container, runVolume, image] = run;
	if (runVolume !== volume)
		throw new Error(`docker run mounts ${runVolume}, not the volume ${volume}`);
	if (image !== DOCUMENTED_IMAGE)
		throw new Error(`docker run names ${image}, not ${DOCUMENTED_IMAGE}`);
	const copy = only(
		lines,
		/^docker cp (\S+) (\S+):\/home\/node\/$/,
		'copies the tarball into the container',
	);
	if (copy[1] !== tarball)
		throw new Error(`docker cp copies ${copy[1]}; npm pack makes ${tarball}`);
	if (copy[2] !== container) throw new Error(`docker cp copies into ${copy[2]}, not ${container}`);
	const install = only(lines, /^docker exec (\S+) sh -c '(.*)'$/, 'installs the tarball inside');
	if (install[1] !== container)
		throw new Error(`docker exec runs in ${install[1]}, not ${container}`);
	const inside = tarballCommands.join(' && ');
	if (install[2] !== inside) {
		throw new Error(
			`docker exec runs "${install[2]}", not the README's tarball commands "${inside}"`,
		);
	}
	if (!inside.endsWith(`~/${tarball}`))
		throw new Error(`the README's tarball commands do not install ~/${tarball}`);
	const restart = only(lines, /^docker restart (\S+)$/, 'restarts the container');
	if (restart[1] !== container)
		throw new Error(`docker restart names ${restart[1]}, not ${container}`);
	if (lines.length !== 5)
		throw new Error(`the block has ${lines.length} lines, not these five steps`);
	return { lines, volume, container, tarball, runLine };
}

/** A documented line as the stage runs it: n8n's image name replaced by `image`, nothing else. */
export function withImage(line: string, image: string): string {
	return line.split(DOCUMENTED_IMAGE).join(image);
}
