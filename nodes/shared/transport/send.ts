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
import { toNodeApiError } from './errors';
import type { Failure } from './failure';
import type { RequestGate } from './gate';
import { DEFAULT_RETRY, withRetry } from './retry';

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
export type Outgoing =
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
}

async function transmit(ctx: RequestContext, outgoing: Outgoing): Promise<unknown> {
	if ('routing' in outgoing) return await outgoing.ctx.makeRoutingRequest(outgoing.routing);
	return await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, outgoing.http);
}

/**
 * The one place a request leaves the package for the Ad Cabinet API, whichever way it was built.
 * Rules that must hold for every request live here: the gate on requests in flight, retries of
 * reads on transient failures, and the mapping of failures to errors that stand alone.
 */
export async function send<T>(ctx: RequestContext, outgoing: Outgoing, policy: SendPolicy<T>): Promise<T> {
	const gate = policy.gate;
	let generation = 0;
	return await withRetry(
		async () => {
			if (gate) generation = await gate.acquire();
			let answer: unknown;
			try {
				answer = await transmit(ctx, outgoing);
			} finally {
				gate?.release();
			}
			return policy.accept(answer);
		},
		policy.idempotent,
		(failure, attempts) =>
			toNodeApiError(ctx.getNode(), failure, {
				itemIndex: policy.itemIndex,
				idempotent: policy.idempotent,
				attempts,
				hint: policy.hint?.(failure),
				secrets: policy.secrets,
			}),
		DEFAULT_RETRY,
		(failure) => {
			// A run that already failed does not wait to retry.
			gate?.throwIfClosed();
			if (failure.status === 429) gate?.slowDown(generation, failure.retryAfterMs);
		},
	);
}
