// `npm run build`, unless SKIP_BUILD=1 says that dist/ is already fresh: .ci/run builds once and
// then runs every stage with SKIP_BUILD=1, so no stage rebuilds what the one before it built.
// A node script rather than shell syntax, so that the npm scripts work in every shell.
const { spawnSync } = require('node:child_process');

if (process.env.SKIP_BUILD === '1') {
	console.log(
		'SKIP_BUILD=1: using the existing dist/ (run `npm run build` after changing a source)',
	);
} else {
	const npm = process.env.npm_execpath;
	const result = npm
		? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
		: spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: true });
	process.exit(result.status ?? 1);
}
