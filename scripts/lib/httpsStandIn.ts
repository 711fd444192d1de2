/**
 * The HTTPS server under a stand-in of a third-party service (Google, Telegram): on 127.0.0.1
 * only, with the certificate of the CA the stage made, which n8n trusts for the run.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';

/** Listens on 127.0.0.1:`port` and hands each request to `handle`; resolves once listening. */
export async function listenHttps(
	tls: { key: string; cert: string },
	port: number,
	handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<Server> {
	const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
		void handle(req, res);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	return server;
}

/** Closes the server, if there is one, once its connections end. */
export async function closeServer(server: Server | undefined): Promise<void> {
	await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
}
