/**
 * Where the time of one Stats pull goes, request by request: installed in a subject's process for
 * one extra pull after the timed ones, so the timed pulls carry none of its cost. It wraps the
 * built package's own functions (the page request, the gate, the cursor) and n8n's request helper
 * on the context the package calls it on, and reads Node's HTTP diagnostics channels for the time
 * on the wire. Nothing in the package is changed for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { join } from 'node:path';

/** The instants of one request, ms from the start of the pull. */
interface Trace {
	asked: number;
	gateIn?: number;
	gateOut?: number;
	helperIn?: number;
	wireStart?: number;
	headers?: number;
	wireEnd?: number;
	helperOut?: number;
	done?: number;
}

/** Per request, in ms: means over the pull's requests. */
export interface Breakdown {
	requests: number;
	wallMs: number;
	/** When the first page was back, and when the first request after it was asked for. */
	firstPageMs: number;
	partsStartMs: number;
	/** Mean requests under way (between the call of n8n's helper and its return), over the pull. */
	meanInFlight: number;
	/** CPU time of the subject's process during the pull (all its threads). */
	cpuMs: number;
	perRequest: {
		/** Waiting for a place at the gate (Requests at Once). */
		gate: number;
		/** Our code before n8n's helper is called: URL, options, pacing, deadline (gate excluded). */
		oursBefore: number;
		/** n8n's helper before the request reaches the socket: credential read, authenticate, axios. */
		helperBefore: number;
		/** On the wire until the answer's headers: connection setup, the round trip, the server. */
		wire: number;
		/** From the answer's headers to its last byte. */
		body: number;
		/** n8n's helper after the answer's last byte, until it returns. */
		helperAfter: number;
		/** Our code after the helper: JSON parse and checks of the answer. */
		oursAfter: number;
		/** The Stats code between a page's answer and the next page of the same cursor. */
		betweenPages: number;
	};
}

const ROOT = join(__dirname, '..', '..');
const store = new AsyncLocalStorage<Trace>();
let traces: Trace[] | undefined;
let started = 0;
let betweenPages: number[] = [];
const now = () => performance.now() - started;

function install(): void {
	// The modules the harness loads (it loads the package from dist/ outside jest), so the same objects.
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each wrapper names the `this` it reads
	type Method = (this: any, ...args: unknown[]) => Promise<unknown>;
	const request = require(join(ROOT, 'dist/nodes/shared/transport/request.js')) as {
		apiRequest: Method;
	};
	const gate = require(join(ROOT, 'dist/nodes/shared/transport/gate.js')) as {
		RequestGate: { prototype: { acquire: Method } };
	};
	const cursor = require(join(ROOT, 'dist/nodes/shared/stats/cursor.js')) as {
		CursorChain: { prototype: { next: Method } };
	};
	const wrapped = new WeakSet<object>();
	const apiRequest = request.apiRequest as (this: unknown, ...args: unknown[]) => Promise<unknown>;
	request.apiRequest = function (this: { helpers: Record<string, unknown> }, ...args: unknown[]) {
		if (!traces) return apiRequest.apply(this, args);
		const helpers = this.helpers;
		if (!wrapped.has(helpers)) {
			wrapped.add(helpers);
			const helper = helpers.httpRequestWithAuthentication as (...a: unknown[]) => Promise<unknown>;
			helpers.httpRequestWithAuthentication = function (this: unknown, ...a: unknown[]) {
				const trace = store.getStore();
				if (trace) trace.helperIn = now();
				return helper.apply(this, a).finally(() => {
					if (trace) trace.helperOut = now();
				});
			};
		}
		const trace: Trace = { asked: now() };
		traces.push(trace);
		return store.run(trace, () =>
			apiRequest.apply(this, args).finally(() => {
				trace.done = now();
			}),
		);
	};
	const acquire = gate.RequestGate.prototype.acquire as (this: unknown) => Promise<number>;
	gate.RequestGate.prototype.acquire = function (this: unknown) {
		const trace = store.getStore();
		if (trace) trace.gateIn ??= now();
		return acquire.call(this).finally(() => {
			if (trace) trace.gateOut = now();
		});
	};
	const returned = new WeakMap<object, number>();
	const next = cursor.CursorChain.prototype.next as (this: object) => Promise<unknown>;
	cursor.CursorChain.prototype.next = function (this: object) {
		const last = returned.get(this);
		if (traces && last !== undefined) betweenPages.push(now() - last);
		return next.call(this).finally(() => returned.set(this, now()));
	};
	const onWire = new WeakMap<ClientRequest, Trace>();
	subscribe('http.client.request.start', (message) => {
		const trace = store.getStore();
		if (!traces || !trace) return;
		trace.wireStart = now();
		onWire.set((message as { request: ClientRequest }).request, trace);
	});
	// Published when the answer's headers are in; its 'end' is the last byte.
	subscribe('http.client.response.finish', (message) => {
		const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
		const trace = onWire.get(request);
		if (!trace) return;
		trace.headers = now();
		response.once('end', () => {
			trace.wireEnd = now();
		});
	});
}

let installed = false;

/** Runs one pull with every request traced. */
export async function traced<T>(
	pull: () => Promise<T>,
): Promise<{ value: T; breakdown: Breakdown }> {
	if (!installed) install();
	installed = true;
	traces = [];
	betweenPages = [];
	started = performance.now();
	const cpu = process.cpuUsage();
	const value = await pull();
	const wallMs = now();
	const used = process.cpuUsage(cpu);
	const all = traces;
	traces = undefined;
	const complete = all.filter(
		(t) =>
			t.helperIn !== undefined &&
			t.wireStart !== undefined &&
			t.headers !== undefined &&
			t.wireEnd !== undefined &&
			t.helperOut !== undefined &&
			t.done !== undefined,
	) as Array<Required<Trace>>;
	if (complete.length !== all.length)
		throw new Error(`breakdown: ${all.length - complete.length} requests not traced whole`);
	const mean = (f: (t: Required<Trace>) => number) =>
		complete.reduce((sum, t) => sum + f(t), 0) / complete.length;
	const gateWait = (t: Required<Trace>) => (t.gateOut ?? t.asked) - (t.gateIn ?? t.asked);
	const inFlight = complete.reduce((sum, t) => sum + (t.helperOut - t.helperIn), 0) / wallMs;
	const sorted = [...complete].sort((a, b) => a.asked - b.asked);
	return {
		value,
		breakdown: {
			requests: complete.length,
			wallMs,
			firstPageMs: sorted[0].done,
			partsStartMs: sorted[1]?.asked ?? wallMs,
			meanInFlight: inFlight,
			cpuMs: (used.user + used.system) / 1000,
			perRequest: {
				gate: mean(gateWait),
				oursBefore: mean((t) => t.helperIn - t.asked - gateWait(t)),
				helperBefore: mean((t) => t.wireStart - t.helperIn),
				wire: mean((t) => t.headers - t.wireStart),
				body: mean((t) => t.wireEnd - t.headers),
				helperAfter: mean((t) => t.helperOut - t.wireEnd),
				oursAfter: mean((t) => t.done - t.helperOut),
				betweenPages: betweenPages.length
					? betweenPages.reduce((a, b) => a + b, 0) / betweenPages.length
					: 0,
			},
		},
	};
}
