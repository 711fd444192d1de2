// `node scripts/with-env.js NAME=value … command args…`: runs a command with the given environment
// variables set. Inline `NAME=value command` in an npm script fails in Windows shells; this does not.
const { spawnSync } = require('node:child_process');

const args = process.argv.slice(2);
const env = { ...process.env };
while (args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[0])) {
	const pair = args.shift();
	const at = pair.indexOf('=');
	env[pair.slice(0, at)] = pair.slice(at + 1);
}
if (!args.length) {
	console.error('usage: node scripts/with-env.js NAME=value … command [args…]');
	process.exit(2);
}
const result = spawnSync(args[0], args.slice(1), {
	stdio: 'inherit',
	env,
	shell: process.platform === 'win32',
});
process.exit(result.status ?? 1);
