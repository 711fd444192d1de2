/**
 * Standalone sandbox: `npm run sandbox -- [--port N] [--token T] [--now ISO] [--frozen] [--bucket-time-zone Z]`.
 * Prints one JSON line with the addresses first (for scripts), then human-readable lines.
 */
import { Sandbox } from './index';

function parseArgs(argv: string[]): {
	port?: number;
	token?: string;
	now?: string;
	frozen: boolean;
	bucketTimeZone?: string;
} {
	const out: { port?: number; token?: string; now?: string; frozen: boolean; bucketTimeZone?: string } = {
		frozen: false,
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const next = () => {
			const value = argv[++i];
			if (value === undefined) throw new Error(`${arg} needs a value`);
			return value;
		};
		if (arg === '--port') out.port = Number(next());
		else if (arg === '--token') out.token = next();
		else if (arg === '--now') out.now = next();
		else if (arg === '--frozen') out.frozen = true;
		else if (arg === '--bucket-time-zone') out.bucketTimeZone = next();
		else
			throw new Error(
				`Unknown argument ${arg}; usage: [--port N] [--token T] [--now ISO] [--frozen] [--bucket-time-zone UTC|+03:00|Europe/Berlin]`,
			);
	}
	if (out.port !== undefined && !Number.isInteger(out.port))
		throw new Error('--port must be an integer');
	if (out.now !== undefined && Number.isNaN(Date.parse(out.now)))
		throw new Error('--now must be an ISO 8601 instant');
	return out;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const sandbox = await Sandbox.start({
		port: args.port,
		token: args.token,
		now: args.now,
		clock: args.frozen ? 'frozen' : 'real',
		bucketTimeZone: args.bucketTimeZone,
	});
	process.stdout.write(
		`${JSON.stringify({ baseUrl: sandbox.baseUrl, clientApiUrl: sandbox.clientApiUrl, token: sandbox.token, port: sandbox.port })}\n`,
	);
	const permitted = sandbox.data.cabinets
		.filter((c) => c.permitted)
		.map((c) => `${c.account_id} (${c.name}, ${c.currency})`);
	console.log(`Sandbox API listening on 127.0.0.1:${sandbox.port}`);
	console.log(`  base URL:       ${sandbox.baseUrl}`);
	console.log(`  client API URL: ${sandbox.clientApiUrl}`);
	console.log(`  token:          ${sandbox.token}`);
	console.log(
		`  clock:          ${sandbox.clock.now().toISOString()} (${args.frozen ? 'frozen' : 'ticking'})`,
	);
	console.log(`  stats periods:  start in ${sandbox.data.bucketZone.name}`);
	console.log(`  cabinets:       ${permitted.join(', ')}`);
	console.log(
		`  control:        http://127.0.0.1:${sandbox.port}/__sandbox/{clock,faults,requests,stats-rows,settings}`,
	);
	console.log('Press Ctrl+C to stop.');
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal} received, stopping the sandbox.`);
		sandbox.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: Error) => {
	console.error(`Sandbox failed to start: ${error.message}`);
	process.exit(1);
});
