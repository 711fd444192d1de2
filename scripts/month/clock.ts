/**
 * One simulated clock for n8n main, its workers and the sandbox.
 *
 * n8n runs under libfaketime (Debian's `faketime` package): LD_PRELOAD of libfaketime, with
 * FAKETIME_TIMESTAMP_FILE holding "+N" (seconds ahead of the wall clock) and FAKETIME_NO_CACHE=1:
 * every clock read of the process (wall and monotonic, the timers included) reads the file again,
 * so rewriting it jumps every n8n process at once, and a timer whose time a jump passes fires on
 * the next tick. (With a cache, FAKETIME_CACHE_DURATION=1, a process may see a jump up to 2 s after
 * another: a worker then started a run an hour behind main and ended it past its deadline.)
 *
 * The sandbox runs in this process: its two clocks (the statistics clock and the service time that
 * tokens and the rate limit follow) are moved by the same amount in the same step, so that all
 * three see the wall clock plus one offset. Redis and PostgreSQL keep real time:
 * their timeouts (Bull's lock expiry, connection timeouts) then never see a jump.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Sandbox } from '../../sandbox';
import { aptInstall } from '../lib/debianPackages';

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';

/** Installs Debian's `faketime` package (which brings libfaketime) when the library is missing. */
function ensureLibfaketime(): void {
	if (existsSync(LIBFAKETIME)) return;
	console.log(`  ${LIBFAKETIME} is missing: installing the faketime package with apt-get`);
	aptInstall(['faketime']);
	if (!existsSync(LIBFAKETIME))
		throw new Error(
			`${LIBFAKETIME} is still missing after apt-get install -y faketime: install Debian's faketime package by hand (it needs root or sudo without a password)`,
		);
}

/** Whole seconds only: libfaketime reads "+N" as seconds. */
const SECOND = 1_000;

export class SimClock {
	/** How far simulated time runs ahead of the wall clock, in ms (whole seconds). */
	private offset: number;
	/** Requests the sandbox is answering now: a jump waits until none is open. */
	private inFlight = 0;
	private lastRequestEnd = Date.now();
	private sandbox?: Sandbox;
	/** Simulated arrival times of the latest requests of each path, newest last. */
	private readonly arrivals = new Map<string, number[]>();
	jumps = 0;
	/** The simulated time of every sign-in request, in the order they arrived. */
	readonly signIns: number[] = [];
	/** Each answer of 429: its simulated time and path, so that the report can name its cause. */
	readonly answers429: string[] = [];

	constructor(
		readonly file: string,
		startMs: number,
	) {
		ensureLibfaketime();
		this.offset = Math.ceil((startMs - Date.now()) / SECOND) * SECOND;
		this.write();
	}

	/** The environment that puts an n8n process on this clock. */
	env(): Record<string, string> {
		return {
			LD_PRELOAD: LIBFAKETIME,
			FAKETIME_TIMESTAMP_FILE: this.file,
			FAKETIME_NO_CACHE: '1',
		};
	}

	now(): number {
		return Date.now() + this.offset;
	}

	get offsetMs(): number {
		return this.offset;
	}

	/**
	 * Puts the sandbox on this clock: its service time moves ahead by the offset (the statistics
	 * clock was started at the simulated time, ticking), and its requests are counted while open.
	 */
	attach(sandbox: Sandbox): void {
		this.sandbox = sandbox;
		sandbox.serviceTime.advance(this.offset - sandbox.serviceTime.offsetMs);
		// The sandbox keeps its node:http server private; the count of open requests is what tells
		// that no HTTP timeout is running in n8n towards it.
		const server = (sandbox as unknown as { http: { server: Server } }).http.server;
		server.on('request', (req, res) => {
			const path = (req.url ?? '').split('?')[0].replace(/\/$/, '');
			if (path.endsWith('/api/v2/login')) this.signIns.push(this.now());
			const list = this.arrivals.get(path) ?? [];
			list.push(this.now());
			if (list.length > 50) list.shift();
			this.arrivals.set(path, list);
			this.inFlight += 1;
			res.on('finish', () => {
				if (res.statusCode === 429)
					this.answers429.push(`${new Date(this.now()).toISOString().slice(0, 19)} ${path}`);
			});
			res.on('close', () => {
				this.inFlight -= 1;
				this.lastRequestEnd = Date.now();
			});
		});
	}

	/** No request to the sandbox is open, and none ended within `ms`. */
	idleFor(ms: number): boolean {
		return this.inFlight === 0 && Date.now() - this.lastRequestEnd >= ms;
	}

	/**
	 * When a client pacing itself to `requests` per `windowMs` on one path may send again: the
	 * latest time a path's window frees, if any path has that many requests in the window now.
	 */
	pacedUntil(requests: number, windowMs: number): number | undefined {
		const now = this.now();
		let until: number | undefined;
		for (const list of this.arrivals.values()) {
			if (list.length < requests) continue;
			const oldest = list[list.length - requests];
			if (now - oldest < windowMs) until = Math.max(until ?? 0, oldest + windowMs);
		}
		return until;
	}

	get open(): number {
		return this.inFlight;
	}

	/** Moves simulated time forward by `ms` (rounded up to whole seconds) for every process at once. */
	advance(ms: number): void {
		const step = Math.ceil(Math.max(0, ms) / SECOND) * SECOND;
		if (!step) return;
		this.offset += step;
		this.write();
		this.sandbox?.serviceTime.advance(step);
		this.sandbox?.clock.advance(step);
		this.jumps += 1;
	}

	/** Moves simulated time forward to `simMs` (never back). */
	jumpTo(simMs: number): void {
		this.advance(simMs - this.now());
	}

	/** A new file renamed over the old: a process reading it never sees it half written. */
	private write(): void {
		writeFileSync(`${this.file}.next`, `+${this.offset / SECOND}\n`);
		renameSync(`${this.file}.next`, this.file);
	}
}
