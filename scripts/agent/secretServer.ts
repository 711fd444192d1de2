/**
 * A service on 127.0.0.1 that hands out a secret, as a cloud metadata service or an internal admin
 * page would, and counts every request that reaches it, whatever the path.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SECRET = 'AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

export class SecretServer {
	/** The path of every request that reached it. */
	readonly requests: string[] = [];
	private server?: Server;

	get url(): string {
		return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/secret`;
	}

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			this.requests.push(req.url ?? '');
			res.writeHead(200, { 'content-type': 'image/png' }).end(SECRET);
		});
		await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}
}
