import { NodeOperationError } from 'n8n-workflow';
import type {
	DeclarativeRestApiSettings,
	IExecuteFunctions,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../constants';
import {
	credentialViewOf,
	refusedWith,
	repeatsSoFar,
	secretsOf,
	sendsOf,
	type PaceLimit,
} from '../auth';
import { DEFAULT_RETRY, withDeadline, withRetry } from './attempts';
import { RUN_DEADLINE_MS, RunDeadlineExceeded, toNodeApiError } from './nodeErrors';
import { readFailure, TokenRevoked, type Failure } from './apiFailure';
import type { RequestGate } from './gate';
import { pacer } from './pacing';
import {
	noteUnderWay,
	rateLimitWaitMessage,
	type RateLimitWords,
	type WaitBound,
} from '../toolCall';
import { callDeadline, fitsWithin, noteSent, type CallDeadline } from '../callDeadline';

/** Every kind of n8n function context a request to the API is made from. */
export type RequestContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IExecutePaginationFunctions;

/**
 * What goes out. `http`: a request built by our own code, sent through n8n's authenticated request
 * helper. `routing`: a declarative operation's request as n8n's RoutingNode built it, sent back
 * through RoutingNode so that its postReceive steps shape the answer into items.
 */
type Outgoing =
	| { http: IHttpRequestOptions }
	| { routing: DeclarativeRestApiSettings.ResultOptions; ctx: IExecutePaginationFunctions };

export interface SendPolicy<T> {
	/** Whether the request only reads, so it may be repeated after a transient failure. */
	idempotent: boolean;
	itemIndex?: number;
	/** Per-operation advice for a failed status, e.g. which ID was not found. */
	hint?: (failure: Failure) => string | undefined;
	/** Secrets to scrub from anything the API echoed back into an error. */
	secrets: string[];
	/** Bounds the requests in flight that share it; a 429 answer slows them all down. */
	gate?: RequestGate;
	/** Checks and reads what came back; throwing (e.g. InvalidJsonResponse) fails the attempt. */
	accept: (answer: unknown) => T;
	/** The deadline of one attempt, headers and body together: the node's Timeout. */
	timeoutMs?: number;
	/** When the whole run must end (Date.now() time); no attempt starts or waits past it. */
	runEndsAt?: number;
	/** The API's rate limit for this request's path; undefined when pacing is off. */
	pace?: { key: string; limit: PaceLimit; onWait?: (ms: number) => void };
	/**
	 * Whether the credential renews its own token (Username and Password, Refresh Token): a 401
	 * that reaches send() then came after n8n renewed the token and repeated the request.
	 */
	renews?: boolean;
	/** Whose requests these are (renewalOwner of the credential): a renewal they need is bounded for tool calls. */
	owner?: string;
}

/** A tool call's note of a request it sends: its deadline, the path, and the request once sent. */
interface CallNote {
	deadline: CallDeadline;
	path: string;
	noted?: ReturnType<typeof noteSent>;
}

/** Without a timeout a stalled connection would hang a run (or a trigger's poll) for good. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * n8n's helper replaces a request's own abortSignal with the execution's cancel signal, read from
 * the context it is called on. Calling it on a context whose cancel signal also fires at the
 * deadline cuts the request off at the deadline, and still when the execution is cancelled.
 */
function withCancelSignal(ctx: RequestContext, signal: AbortSignal): RequestContext {
	return Object.create(ctx, {
		getExecutionCancelSignal: { value: () => signal },
	}) as RequestContext;
}

/**
 * One attempt, bounded by its deadline (headers and body together) and by the execution's own
 * cancel signal.
 */
async function transmit(
	ctx: RequestContext,
	outgoing: Outgoing,
	timeoutMs: number,
	renewOn401 = true,
	sent: object[] = [],
	call?: CallNote,
): Promise<unknown> {
	const own =
		'getExecutionCancelSignal' in ctx
			? (ctx as IExecuteFunctions).getExecutionCancelSignal()
			: undefined;
	return await withDeadline(
		timeoutMs,
		async (signal) => {
			if (call) call.noted = noteSent(call.deadline, methodOf(outgoing), call.path);
			if ('routing' in outgoing) {
				// A declarative request goes through RoutingNode, whose context cannot be given the
				// deadline: the run stops waiting at the deadline and n8n closes the connection when
				// the server ends it or the execution ends.
				return await outgoing.ctx.makeRoutingRequest({
					...outgoing.routing,
					options: { ...outgoing.routing.options, disableFollowRedirect: true },
				});
			}
			const bounded = withCancelSignal(ctx, signal);
			const options = {
				...outgoing.http,
				// The token must never follow a redirect to another host: a 3xx is an error.
				disableFollowRedirect: true,
			};
			sent.push(options);
			return await bounded.helpers.httpRequestWithAuthentication.call(
				bounded,
				CREDENTIAL_TYPE,
				options,
				// No status at all: a 401 is not met with yet another renewal.
				renewOn401 ? undefined : { preAuthenticationRetryStatusCode: [] },
			);
		},
		own,
	);
}

/**
 * A 401 that reaches us with a credential that renews itself came after n8n renewed the token and
 * repeated the request: the renewed token was refused too. Another process may have renewed since
 * and stored a newer token (a service that keeps one session per account revokes the older ones),
 * so the credential is read once more and the request repeated once, without yet another renewal.
 * A 401 to that repeat too becomes TokenRevoked, whose message names the likely cause.
 */
async function transmitOrReadAgain(
	ctx: RequestContext,
	outgoing: Outgoing,
	timeoutMs: number,
	policy: { renews?: boolean; runEndsAt?: number },
	sent: object[] = [],
	call?: CallNote,
): Promise<unknown> {
	return await transmit(ctx, outgoing, timeoutMs, true, sent, call).catch(
		async (error: unknown) => {
			const rest = (policy.runEndsAt ?? Infinity) - Date.now();
			if (!policy.renews || readFailure(error).status !== 401) return await Promise.reject(error);
			// The token n8n renewed was refused: no later request is handed it by a shared renewal.
			refusedWith(sent);
			if (rest <= 0) return await Promise.reject(error);
			return await transmit(ctx, outgoing, Math.min(timeoutMs, rest), false, sent, call).catch(
				async (again: unknown) => {
					if (readFailure(again).status !== 401) return await Promise.reject(again);
					refusedWith(sent);
					return await Promise.reject(new TokenRevoked());
				},
			);
		},
	);
}

/**
 * The one place a request leaves the package for the Ad Cabinet API, whichever way it was built.
 * Rules that must hold for every request live here: the gate on requests in flight, retries of
 * reads on transient failures, and the mapping of failures to errors that stand alone.
 */
export async function send<T>(
	ctx: RequestContext,
	outgoing: Outgoing,
	policy: SendPolicy<T>,
): Promise<T> {
	const gate = policy.gate;
	let generation = 0;
	const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const pace = policy.pace;
	// A tool call must answer before the AI client gives up: every wait in it keeps to its deadline.
	const call = callDeadline(ctx);
	const refuse = (words: Omit<RateLimitWords, 'path' | 'requests' | 'windowMs'>) =>
		new NodeOperationError(
			ctx.getNode(),
			rateLimitWaitMessage({
				path: pathOf(outgoing, pace?.key),
				requests: pace?.limit.requests ?? 10,
				windowMs: pace?.limit.windowMs ?? 60_000,
				call,
				...words,
			}),
			{ itemIndex: policy.itemIndex },
		);
	const bound: WaitBound | undefined =
		call === undefined
			? undefined
			: {
					endsAt: call.endsAt,
					error: (waitMs, blocked) => refuse({ waitMs, cause: blocked ? 'blocked' : 'used' }),
				};
	// The request of this send as the call noted it, to mark a 429 on it.
	let note: CallNote | undefined;
	const ended = policy.owner === undefined ? undefined : noteUnderWay(policy.owner, call);
	try {
		return await sendBounded();
	} finally {
		ended?.();
	}

	async function sendBounded(): Promise<T> {
		return await withRetry(
			async () => {
				if (gate) generation = await gate.acquire(bound);
				let answer: unknown;
				try {
					// With a credential that renews itself, n8n may send the request a second time after a
					// 401: a place is kept for that repeat while the request is under way.
					const reserve = policy.renews === true;
					const repeatsBefore = repeatsSoFar();
					if (pace) {
						const waited = await pacer.admit(pace.key, pace.limit, reserve, bound);
						if (waited > 0) pace.onWait?.(waited);
					}
					const sent: object[] = [];
					note = call && { deadline: call, path: pathOf(outgoing, pace?.key) };
					try {
						const left = (policy.runEndsAt ?? Infinity) - Date.now();
						if (left <= 0) throw new RunDeadlineExceeded(ctx.getNode(), policy.itemIndex);
						answer = await transmitOrReadAgain(
							ctx,
							outgoing,
							Math.min(timeoutMs, left),
							policy,
							sent,
							note,
						);
					} finally {
						if (pace && reserve) pacer.release(pace.key, sendsBeyondFirst(sent, repeatsBefore));
					}
				} finally {
					gate?.release();
				}
				return policy.accept(answer);
			},
			policy.idempotent,
			async (failure, attempts) =>
				toNodeApiError(ctx.getNode(), failure, {
					itemIndex: policy.itemIndex,
					idempotent: policy.idempotent,
					attempts,
					hint: policy.hint?.(failure),
					secrets: [...policy.secrets, ...(await currentSecrets(ctx))],
				}),
			DEFAULT_RETRY,
			(failure, wait) => {
				// A run that already failed does not wait to retry.
				gate?.throwIfClosed();
				if (failure.status === 429) {
					// The API performed nothing it answered 429: what the call sent says so.
					if (note?.noted) note.noted.refused429 = true;
					// Sending again while the API blocks the path would extend the block: wait it out.
					if (pace) pacer.block(pace.key, pace.limit);
					gate?.slowDown(generation, failure.retryAfterMs);
					if (call !== undefined) {
						// A tool call: the block or the Retry-After (uncapped: when the API takes requests
						// again) is not waited out when it would end past the call's deadline.
						const asked = failure.retryAfterMs ?? 0;
						const blocked = pace ? pacer.waitFor(pace.key, pace.limit, policy.renews === true) : 0;
						const longest = Math.max(wait, asked, blocked);
						if (!fitsWithin(call, longest)) {
							throw refuse({
								waitMs: longest,
								askedMs: asked > 0 ? asked : undefined,
								cause: asked >= blocked && asked > 0 ? 'retryAfter' : '429',
							});
						}
					}
				}
				// Any other wait before a retry that would end past a tool call's deadline is not
				// taken: the call ends with the failure it met.
				return fitsWithin(call, wait);
			},
			call,
		);
	}
}

/** The literal URL path of a request, for messages: the pacing key's path when there is one. */
function pathOf(outgoing: Outgoing, key: string | undefined): string {
	if (key !== undefined) return key.slice(key.indexOf('\u0000') + 1);
	const url = 'http' in outgoing ? outgoing.http.url : String(outgoing.routing.options.url ?? '');
	try {
		return new URL(url, 'http://relative.invalid').pathname;
	} catch {
		return url;
	}
}

/** The method of a request, for what a call sent. */
function methodOf(outgoing: Outgoing): string {
	const options = 'http' in outgoing ? outgoing.http : outgoing.routing.options;
	return String(options.method ?? 'GET');
}

/**
 * How many times a request was sent after its first send: counted by the credential's hook where
 * the package built the options itself. A declarative request's options are built by n8n and not
 * seen here: it counts as sent again if n8n sent any request of this process again meanwhile.
 */
function sendsBeyondFirst(sent: object[], repeatsBefore: number): number {
	const counts = sent.map(sendsOf);
	if (counts.length > 0 && counts.every((count) => count !== undefined)) {
		return Math.max(0, counts.reduce((sum, count) => sum + (count ?? 0), 0) - 1);
	}
	return repeatsSoFar() !== repeatsBefore ? 1 : 0;
}

/**
 * The credential's secrets as they are when the error is built: a token renewed during the run,
 * here or by another process, is in no list made before the run's requests.
 */
async function currentSecrets(ctx: RequestContext): Promise<string[]> {
	try {
		return secretsOf(await credentialViewOf(ctx));
	} catch {
		return [];
	}
}

/** When a run that starts now must end. */
export function runDeadline(): number {
	return Date.now() + RUN_DEADLINE_MS;
}
