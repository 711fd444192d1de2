/**
 * Standalone sandbox: `npm run sandbox -- [options]` (see USAGE). Prints one JSON line first (for
 * scripts: addresses, the form, the static token, the username and password), then human-readable
 * lines.
 */
import { formatRateLimit, parseRateLimit, type RateLimit } from './auth/rateLimit';
import { Sandbox, parseAuthFaultFlag, type AuthFaultSettings } from './index';
import {
	formatRestatements,
	parseRestatements,
	type RestatementSettings,
} from './metrics/restatements';
import { isPlatform, PLATFORMS, type Platform } from './platform';

const USAGE =
	'[--platform telegram|ext] [--port N] [--token T] [--username U] [--password P] ' +
	'[--token-lifetime SECONDS] [--refresh-lifetime SECONDS] [--rate-limit REQUESTS/SECONDS|off] ' +
	'[--restatements PERCENT%/DAYSd|off] [--single-session] [--count-renewals] ' +
	'[--auth-fault STATUS|reset|latency=MS:COUNT[:sign-in,refresh]] ' +
	'[--now ISO] [--frozen] [--bucket-time-zone UTC|+03:00|Europe/Berlin]';

interface CliArgs {
	platform?: Platform;
	port?: number;
	token?: string;
	username?: string;
	password?: string;
	tokenLifetimeSeconds?: number;
	refreshLifetimeSeconds?: number;
	rateLimit?: RateLimit | null;
	restatements?: RestatementSettings;
	now?: string;
	frozen: boolean;
	bucketTimeZone?: string;
	singleSession?: boolean;
	countRenewals?: boolean;
	authFault?: AuthFaultSettings;
}

function seconds(flag: string, raw: string): number {
	const value = Number(raw);
	if (!(value > 0) || !Number.isFinite(value))
		throw new Error(`${flag} must be a number of seconds greater than 0, got ${raw}`);
	return value;
}

function parseArgs(argv: string[]): CliArgs {
	const out: CliArgs = { frozen: false };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const next = () => {
			const value = argv[++i];
			if (value === undefined) throw new Error(`${arg} needs a value`);
			return value;
		};
		if (arg === '--platform') {
			const value = next();
			if (!isPlatform(value))
				throw new Error(`--platform must be one of ${PLATFORMS.join(', ')}, got ${value}`);
			out.platform = value;
		} else if (arg === '--port') out.port = Number(next());
		else if (arg === '--token') out.token = next();
		else if (arg === '--username') out.username = next();
		else if (arg === '--password') out.password = next();
		else if (arg === '--token-lifetime') out.tokenLifetimeSeconds = seconds(arg, next());
		else if (arg === '--refresh-lifetime') out.refreshLifetimeSeconds = seconds(arg, next());
		else if (arg === '--rate-limit') out.rateLimit = parseRateLimit(next());
		else if (arg === '--restatements') out.restatements = parseRestatements(next());
		else if (arg === '--now') out.now = next();
		else if (arg === '--frozen') out.frozen = true;
		else if (arg === '--single-session') out.singleSession = true;
		else if (arg === '--count-renewals') out.countRenewals = true;
		else if (arg === '--auth-fault') out.authFault = parseAuthFaultFlag(next());
		else if (arg === '--bucket-time-zone') out.bucketTimeZone = next();
		else throw new Error(`Unknown argument ${arg}; usage: ${USAGE}`);
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
		platform: args.platform,
		port: args.port,
		token: args.token,
		username: args.username,
		password: args.password,
		tokenLifetimeSeconds: args.tokenLifetimeSeconds,
		refreshLifetimeSeconds: args.refreshLifetimeSeconds,
		rateLimit: args.rateLimit,
		restatements: args.restatements,
		now: args.now,
		clock: args.frozen ? 'frozen' : 'real',
		bucketTimeZone: args.bucketTimeZone,
		singleSession: args.singleSession,
		countRenewals: args.countRenewals,
	});
	if (args.authFault) sandbox.authFaults.set(args.authFault);
	process.stdout.write(
		`${JSON.stringify({
			baseUrl: sandbox.baseUrl,
			clientApiUrl: sandbox.clientApiUrl,
			token: sandbox.token,
			port: sandbox.port,
			platform: sandbox.platform,
			username: sandbox.username,
			password: sandbox.password,
		})}\n`,
	);
	const permitted = sandbox.data.cabinets
		.filter((c) => c.permitted)
		.map((c) => `${c.account_id} (${c.name}, ${c.currency})`);
	const session = sandbox.sessions.settings;
	console.log(`Sandbox API listening on 127.0.0.1:${sandbox.port}`);
	console.log(
		`  form:           ${sandbox.platform === 'telegram' ? 'telegram (the real service)' : 'ext (the interface spec)'}`,
	);
	console.log(`  base URL:       ${sandbox.baseUrl}`);
	console.log(`  client API URL: ${sandbox.clientApiUrl}`);
	console.log(`  sign-in:        ${sandbox.username} / ${sandbox.password}`);
	console.log(
		`  tokens live:    access ${session.tokenLifetimeSeconds} s, refresh ${session.refreshLifetimeSeconds} s`,
	);
	console.log(`  static token:   ${sandbox.token} (never expires)`);
	console.log(
		`  rate limit:     ${formatRateLimit(sandbox.rateLimiter.settings)} (requests/seconds per path)`,
	);
	console.log(
		`  restatements:   ${formatRestatements(sandbox.data.restatements.settings)} (share of campaign-days restated, within days after the day ends)`,
	);
	console.log(
		`  clock:          ${sandbox.clock.now().toISOString()} (${args.frozen ? 'frozen' : 'ticking'})`,
	);
	console.log(`  stats periods:  start in ${sandbox.data.bucketZone.name}`);
	console.log(
		`  sessions:       ${session.singleSession ? 'one per user (a new sign-in or refresh revokes the earlier access tokens)' : 'several per user'}; sign-in and refresh ${sandbox.rateLimiter.countRenewals ? 'count' : 'do not count'} in the rate limit`,
	);
	console.log(`  cabinets:       ${permitted.join(', ')}`);
	console.log(
		`  control:        http://127.0.0.1:${sandbox.port}/__sandbox/{clock,faults,auth-faults,requests,stats-rows,settings,auth,rate-limit,service-time,restatements,ads/{ad_id}/status}`,
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
