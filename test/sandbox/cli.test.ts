import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Runs the CLI, hands its first JSON line to `check`, then stops it with SIGTERM. */
async function withCli(args: string[], check: (info: Record<string, unknown>) => Promise<void>) {
	const child = spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			join(__dirname, '..', '..', 'sandbox', 'cli.ts'),
			...args,
		],
		{ cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] },
	);
	try {
		const lines = createInterface({ input: child.stdout });
		const [first] = (await once(lines, 'line')) as [string];
		await check(JSON.parse(first));
		child.kill('SIGTERM');
		const [code] = (await once(child, 'exit')) as [number | null];
		expect(code).toBe(0);
	} finally {
		if (child.exitCode === null) child.kill('SIGKILL');
	}
}

describe('CLI (npm run sandbox)', () => {
	test('prints one JSON line with the addresses, serves the API, and stops cleanly on SIGTERM', async () => {
		const args = [
			'--port',
			'0',
			'--token',
			'cli-token',
			'--now',
			'2026-03-10T12:00:00Z',
			'--frozen',
		];
		const more = ['--platform', 'ext', '--username', 'cli-user', '--password', 'cli-password'];
		await withCli([...args, ...more], async (info) => {
			expect(info).toEqual({
				baseUrl: `http://127.0.0.1:${info.port}/base`,
				clientApiUrl: `http://127.0.0.1:${info.port}/client`,
				token: 'cli-token',
				port: expect.any(Number),
				platform: 'ext',
				username: 'cli-user',
				password: 'cli-password',
			});
			const response = await fetch(`${info.baseUrl}/api/report/objects`, {
				headers: { authorization: 'Bearer cli-token' },
			});
			expect(response.status).toBe(200);
			const clock = await (await fetch(`http://127.0.0.1:${info.port}/__sandbox/clock`)).json();
			expect(clock).toEqual({ now: '2026-03-10T12:00:00.000Z', mode: 'frozen' });
		});
	});

	test('speaks the telegram form by default; sign-in with the printed username and password; lifetimes and the limit from flags', async () => {
		const args = ['--port', '0', '--frozen', '--token-lifetime', '5', '--refresh-lifetime', '50'];
		const more = ['--rate-limit', '2/60', '--restatements', 'off'];
		await withCli([...args, ...more], async (info) => {
			expect(info).toMatchObject({ platform: 'telegram', token: 'sandbox-token' });
			expect(info.username).toEqual(expect.any(String));
			expect(info.password).toEqual(expect.any(String));
			const login = await fetch(`${info.baseUrl}/api/v2/login`, {
				method: 'POST',
				body: new URLSearchParams({
					username: info.username as string,
					password: info.password as string,
				}),
			});
			expect(login.status).toBe(200);
			const { access_token } = (await login.json()) as { access_token: string };
			const statuses: number[] = [];
			for (let i = 0; i < 3; i++) {
				const response = await fetch(`${info.baseUrl}/api/report/objects`, {
					headers: { authorization: `Bearer ${access_token}` },
				});
				statuses.push(response.status);
			}
			expect(statuses).toEqual([200, 200, 429]);
			const settings = await (
				await fetch(`http://127.0.0.1:${info.port}/__sandbox/settings`)
			).json();
			expect(settings).toMatchObject({
				platform: 'telegram',
				rateLimit: '2/60',
				restatements: 'off',
				tokenLifetimeSeconds: 5,
				refreshLifetimeSeconds: 50,
			});
		});
	});
});
