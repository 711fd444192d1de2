import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

describe('CLI (npm run sandbox)', () => {
	test('prints one JSON line with the addresses, serves the API, and stops cleanly on SIGTERM', async () => {
		const child = spawn(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				join(__dirname, '..', '..', 'sandbox', 'cli.ts'),
				'--port',
				'0',
				'--token',
				'cli-token',
				'--now',
				'2026-03-10T12:00:00Z',
				'--frozen',
			],
			{ cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			const lines = createInterface({ input: child.stdout });
			const [first] = (await once(lines, 'line')) as [string];
			const info = JSON.parse(first);
			expect(info).toEqual({
				baseUrl: `http://127.0.0.1:${info.port}/base`,
				clientApiUrl: `http://127.0.0.1:${info.port}/client`,
				token: 'cli-token',
				port: expect.any(Number),
			});
			const response = await fetch(`${info.baseUrl}/api/report/objects`, {
				headers: { authorization: 'Bearer cli-token' },
			});
			expect(response.status).toBe(200);
			const clock = await (await fetch(`http://127.0.0.1:${info.port}/__sandbox/clock`)).json();
			expect(clock).toEqual({ now: '2026-03-10T12:00:00.000Z', mode: 'frozen' });
			child.kill('SIGTERM');
			const [code] = (await once(child, 'exit')) as [number | null];
			expect(code).toBe(0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	});
});
