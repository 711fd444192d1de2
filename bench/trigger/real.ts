/**
 * Measurement 3 (end to end): real polls of the built Stats Trigger through n8n-core's PollContext
 * (the harness's pollOnce) against the sandbox, five minutes of clock apart. The node reads the
 * time from Date, so Date is moved here together with the sandbox's clock, as the trigger tests do.
 */
import { performance } from 'node:perf_hooks';
import type { IDataObject } from 'n8n-workflow';
import { pollOnce } from '../../harness';
import { Sandbox } from '../../sandbox';

const MINUTE = 60_000;
const START = '2026-03-10T12:34:00.000Z';

let fakeNow = Date.parse(START);
const RealDate = Date;
class MovedDate extends RealDate {
	constructor(...args: unknown[]) {
		if (args.length === 0) super(fakeNow);
		else super(...(args as [number]));
	}

	static now(): number {
		return fakeNow;
	}
}
globalThis.Date = MovedDate as DateConstructor;

export interface RealArgs {
	polls: number;
	every: number;
}

export interface RealAnswer {
	stateBytes: number[];
	pollMs: number[];
	/** Of which the sandbox (in this process) spent answering. */
	handlerMs: number;
	requests: number;
	emitted: number;
}

export async function realPolls(args: RealArgs): Promise<RealAnswer> {
	const sandbox = await Sandbox.start({ platform: 'ext', now: START });
	const credentials = {
		accessToken: sandbox.token,
		baseUrl: sandbox.baseUrl,
		clientApiUrl: sandbox.clientApiUrl,
		platform: sandbox.platform,
	};
	const parameters = {
		periodGroupingUnit: 'hour',
		grouping: ['campaign'],
		emit: 'everyChange',
		startFrom: 'now',
		currency: 'EUR',
		numericValues: true,
		filters: {},
		options: {},
	};
	let staticData: IDataObject = {};
	const stateBytes: number[] = [];
	const pollMs: number[] = [];
	let emitted = 0;
	try {
		for (let poll = 1; poll <= args.polls; poll++) {
			fakeNow += 5 * MINUTE;
			sandbox.clock.set(new RealDate(fakeNow));
			const started = performance.now();
			const result = await pollOnce({
				type: 'adCabinetStatsTrigger',
				parameters,
				credentials,
				staticData,
			});
			pollMs.push(performance.now() - started);
			if (result.error) throw result.error;
			emitted += result.items?.length ?? 0;
			// n8n saves the workflow's static data as JSON between polls.
			const stored = JSON.stringify(result.staticData);
			staticData = JSON.parse(stored) as IDataObject;
			if (poll % args.every === 0) stateBytes.push(Buffer.byteLength(stored));
			sandbox.clearLog();
		}
		return {
			stateBytes,
			pollMs,
			handlerMs: sandbox.data.handlerTimeMs,
			requests: args.polls,
			emitted,
		};
	} finally {
		await sandbox.stop();
	}
}
