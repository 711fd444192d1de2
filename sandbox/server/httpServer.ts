import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { RATE_LIMIT_EXCEEDED } from '../auth/rateLimit';
import { SANDBOX_USER_ID, type Identity } from '../auth/sessions';
import type { SandboxData } from '../data/sandboxData';
import { ApiError } from '../errors';
import type { FaultController } from '../faults';
import type { ApiRequest } from '../handlers/context';
import type { ApiName, LoggedRequest } from '../types';
import { handleControl, type ControlTarget } from './control';
import { respondWithFault } from './faultResponder';
import { BodyTooLargeError, parseBody, parseQuery, readBody } from './requestBody';
import { errorReply, sendReply, type Reply } from './reply';
import { matchRoute } from './routes';

export const BASE_PREFIX = '/base';
export const CLIENT_PREFIX = '/client';
const CONTROL_PREFIX = '/__sandbox';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

type ServerDeps = ControlTarget;

function resolveTarget(pathname: string): { api: ApiName; path: string } {
	for (const [prefix, api] of [
		[BASE_PREFIX, 'base'],
		[CLIENT_PREFIX, 'client'],
		[CONTROL_PREFIX, 'control'],
	] as const) {
		if (pathname === prefix || pathname.startsWith(`${prefix}/`))
			return { api, path: pathname.slice(prefix.length) };
	}
	return { api: 'unknown', path: pathname };
}

const UNAUTHORIZED_HEADERS = { 'www-authenticate': 'Bearer realm="api"' };

/**
 * Requests carry `Authorization: Bearer <token>`. The spec form answers DRF-like; the real form
 * as its sign-in does (`{detail, status_code}`), telling an expired token from an unknown one.
 */
function authFailure(identity: Identity, platform: 'telegram' | 'ext'): ApiError | null {
	if (identity.kind === 'valid') return null;
	if (platform === 'ext') {
		const detail =
			identity.kind === 'missing'
				? 'Authentication credentials were not provided.'
				: 'Invalid or expired token.';
		return new ApiError(401, detail, undefined, UNAUTHORIZED_HEADERS);
	}
	const detail =
		identity.kind === 'missing'
			? 'Not authenticated'
			: identity.kind === 'expired'
				? 'Access Token Expired'
				: 'Could not validate credentials';
	return new ApiError(401, detail, undefined, UNAUTHORIZED_HEADERS, { status_code: 401 });
}

const NOT_FOUND: Reply = { status: 404, json: { detail: 'Not found.' } };

/** node:http server of the sandbox: logging, faults, routing, auth, then the handler. */
export class SandboxHttpServer {
	readonly server: Server;
	private readonly sockets = new Set<Socket>();
	private readonly stallTimers = new Set<NodeJS.Timeout>();
	private seq = 0;
	private open = 0;

	constructor(private readonly deps: ServerDeps) {
		this.server = createServer((req, res) => {
			this.handle(req, res).catch((error) => {
				if (!res.headersSent) sendReply(res, errorReply(error));
			});
		});
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
	}

	listen(port: number): Promise<number> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, '127.0.0.1', () => {
				this.server.off('error', reject);
				const address = this.server.address();
				resolve(typeof address === 'object' && address ? address.port : port);
			});
		});
	}

	/** Closes the listener and every socket, stalled ones included. */
	close(): Promise<void> {
		for (const timer of this.stallTimers) clearTimeout(timer);
		this.stallTimers.clear();
		const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
		this.server.closeAllConnections();
		for (const socket of this.sockets) socket.destroy();
		return closed;
	}

	private get data(): SandboxData {
		return this.deps.data;
	}

	private get faults(): FaultController {
		return this.deps.faults;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = req.url ?? '/';
		const queryAt = url.indexOf('?');
		const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
		const rawQuery = queryAt < 0 ? '' : url.slice(queryAt + 1);
		const method = (req.method ?? 'GET').toUpperCase();
		const contentType = req.headers['content-type'];
		const target = resolveTarget(pathname);
		const identity = this.deps.sessions.identify(req.headers.authorization);

		if (target.api === 'control') {
			await this.handleControlRequest(req, res, method, target.path, contentType);
			return;
		}

		const entry: LoggedRequest = {
			seq: ++this.seq,
			method,
			api: target.api,
			path: target.path,
			query: parseQuery(rawQuery),
			authorized: identity.kind === 'valid',
			status: 0,
			open: ++this.open,
			receivedAt: Date.now(),
		};
		// Finished (handed to the socket) or closed without an answer: no longer open, counted once.
		let counted = true;
		const done = () => {
			if (counted) this.open--;
			counted = false;
		};
		res.once('finish', done);
		res.once('close', done);
		if (contentType !== undefined) entry.contentType = contentType;
		this.deps.requests.push(entry);

		let raw: Buffer;
		try {
			raw = await readBody(req);
		} catch (error) {
			if (!(error instanceof BodyTooLargeError)) throw error;
			entry.status = 413;
			res.setHeader('connection', 'close');
			sendReply(res, { status: 413, json: { detail: error.message } });
			return;
		}
		const body = await parseBody(raw, contentType);
		if (body.kind !== 'none') entry.body = body.value;

		if (target.api === 'unknown') {
			entry.status = NOT_FOUND.status;
			sendReply(res, NOT_FOUND);
			return;
		}

		// A slow API, so that tests can see how many requests a node keeps open at once.
		if (this.data.answerDelayMs > 0)
			await new Promise((resolve) => setTimeout(resolve, this.data.answerDelayMs));
		const authFault = this.deps.authFaults.decide(target.path);
		if (authFault) {
			if (authFault.latencyMs > 0)
				await new Promise((resolve) => setTimeout(resolve, authFault.latencyMs));
			if (authFault.kind === 'reset') {
				entry.fault = 'reset';
				req.socket.resetAndDestroy();
				return;
			}
			if (authFault.kind !== undefined) {
				entry.fault = String(authFault.kind);
				entry.status = authFault.kind;
				sendReply(res, {
					status: authFault.kind,
					json: { detail: `Injected fault ${authFault.kind} on sign-in or refresh.` },
				});
				return;
			}
		}
		const fault = this.faults.decide(target.path, method);
		if (fault) {
			entry.fault = fault.kind;
			entry.status = respondWithFault(req, res, fault, this.stallTimers);
			return;
		}

		const started = performance.now();
		let reply: Reply;
		try {
			// Decisions due by now are made before the request reads or writes anything.
			this.data.moderation?.advance(this.data.nowMs());
			const platform = this.data.platform;
			const match = matchRoute(platform, target.api, method, target.path);
			const isPublic = match.kind === 'found' && match.public;
			// The real service counts each user's requests per URL path; sign-in and refresh carry no
			// user and are not counted (unless the sandbox is told to count them, for the one user). A
			// request with an expired token still names its user, so it counts; one with an unknown
			// token or none does not (docs/development.md, the sandbox's two forms).
			const limiter = this.deps.rateLimiter;
			const counted = isPublic
				? limiter.countRenewals
					? SANDBOX_USER_ID
					: undefined
				: identity.kind === 'valid' || identity.kind === 'expired'
					? identity.userId
					: undefined;
			if (
				counted !== undefined &&
				!limiter.admit(counted, pathname, this.deps.serviceTime.nowMs())
			) {
				entry.rateLimited = true;
				entry.status = 429;
				sendReply(res, { status: 429, json: { detail: RATE_LIMIT_EXCEEDED } });
				return;
			}
			if (match.kind === 'not-found') {
				reply = NOT_FOUND;
			} else if (match.kind === 'method-not-allowed') {
				reply = {
					status: 405,
					json: { detail: `Method "${method}" not allowed.` },
					headers: { allow: match.allowed.join(', ') },
				};
			} else {
				const denied = isPublic ? null : authFailure(identity, platform);
				if (denied) throw denied;
				const request: ApiRequest = {
					method,
					api: target.api,
					path: target.path,
					params: match.params,
					query: entry.query,
					rawQuery,
					contentType,
					headers: req.headers,
					body,
				};
				reply = await match.handler({
					req: request,
					data: this.data,
					sessions: this.deps.sessions,
				});
			}
		} catch (error) {
			reply = errorReply(error);
		}
		entry.status = reply.status;
		this.data.handlerTimeMs += performance.now() - started;
		if (reply.status < 400 && this.faults.losesAnswer(target.path, method)) {
			// Carried out, but the answer never arrives: the client sees its connection reset.
			entry.fault = 'lost';
			req.socket.resetAndDestroy();
			return;
		}
		sendReply(res, reply);
	}

	private async handleControlRequest(
		req: IncomingMessage,
		res: ServerResponse,
		method: string,
		path: string,
		contentType: string | undefined,
	): Promise<void> {
		if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) {
			sendReply(res, {
				status: 403,
				json: { detail: 'Control endpoints are available from loopback only.' },
			});
			return;
		}
		let reply: Reply;
		try {
			const body = await parseBody(await readBody(req), contentType ?? 'application/json');
			reply = handleControl(this.deps, method, path, body);
		} catch (error) {
			reply = errorReply(error);
		}
		sendReply(res, reply);
	}
}
