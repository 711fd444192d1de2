import { SandboxClock, type SandboxClockApi } from './clock';
import { SandboxData } from './data/sandboxData';
import { bucketZone } from './metrics/time';
import { FaultController } from './faults';
import { BASE_PREFIX, CLIENT_PREFIX, SandboxHttpServer } from './server/httpServer';
import type { LoggedRequest, SandboxOptions } from './types';

export { FaultController, FAULT_KINDS } from './faults';
export type { FaultKind, FaultSettings } from './faults';
export { SandboxData } from './data/sandboxData';
export type { ApiName, LoggedRequest, MultipartBody, SandboxOptions, UploadedFile } from './types';
export type { SandboxClockApi } from './clock';

export const DEFAULT_TOKEN = 'sandbox-token';
export const DEFAULT_AD_COUNT = 1200;

function defaultNow(): Date {
	return new Date(Math.floor(Date.now() / 60_000) * 60_000);
}

/**
 * A stateful, deterministic emulator of every endpoint of the advertising API spec, on 127.0.0.1.
 * `baseUrl` serves statistics, report and ad endpoints; `clientApiUrl` serves pixel events, KKTU,
 * media and audiences.
 */
export class Sandbox {
	readonly port: number;
	readonly baseUrl: string;
	readonly clientApiUrl: string;
	readonly token: string;
	readonly clock: SandboxClockApi;
	readonly faults: FaultController;
	readonly requests: LoggedRequest[];
	readonly data: SandboxData;

	private constructor(
		private readonly http: SandboxHttpServer,
		init: {
			port: number;
			token: string;
			clock: SandboxClock;
			faults: FaultController;
			requests: LoggedRequest[];
			data: SandboxData;
		},
	) {
		this.port = init.port;
		this.baseUrl = `http://127.0.0.1:${init.port}${BASE_PREFIX}`;
		this.clientApiUrl = `http://127.0.0.1:${init.port}${CLIENT_PREFIX}`;
		this.token = init.token;
		this.clock = init.clock;
		this.faults = init.faults;
		this.requests = init.requests;
		this.data = init.data;
	}

	static async start(options: SandboxOptions = {}): Promise<Sandbox> {
		const start = options.now ?? defaultNow();
		const clock = new SandboxClock(start, options.clock ?? 'frozen');
		const data = new SandboxData({
			seed: options.seed ?? 1,
			adCount: options.adCount ?? DEFAULT_AD_COUNT,
			clock,
			anchorMs: clock.nowMs(),
		});
		if (options.bucketTimeZone !== undefined) data.bucketZone = bucketZone(options.bucketTimeZone);
		const faults = new FaultController();
		const requests: LoggedRequest[] = [];
		const token = options.token ?? DEFAULT_TOKEN;
		const http = new SandboxHttpServer({
			token,
			clock,
			faults,
			data,
			requests,
			clearLog: () => {
				requests.length = 0;
			},
		});
		const port = await http.listen(options.port ?? 0);
		return new Sandbox(http, { port, token, clock, faults, requests, data });
	}

	/** Empties the request log (the array keeps its identity). */
	clearLog(): void {
		this.requests.length = 0;
	}

	stop(): Promise<void> {
		return this.http.close();
	}
}
