/** Measurement 3: the Stats Trigger's state and poll time over many polls. */
import { formatBytes, formatMs, median } from '../lib/measure';
import type { Line } from '../lib/report';
import { Child } from '../lib/rpc';
import type { PureAnswer, PureArgs } from '../trigger/pure';
import type { RealAnswer } from '../trigger/real';
import { WrongData } from './stats';

interface TriggerOptions {
	polls: number;
	/** Polls of the per-ad "every change" case, the slow one to simulate. */
	adChangePolls: number;
	realPolls: number;
}

const STATE_LIMIT = 8 * 1024;
/** "Flat": the last polls take at most this much longer (median) than the early ones. */
const FLAT_LIMIT = 1.25;

/**
 * The early and the late polls to compare. The first tenth is left out of both: it is the JIT
 * warming up, which would make any later poll look faster.
 */
function blocks(times: number[]): { first: number[]; last: number[] } {
	const warm = Math.floor(times.length / 10);
	const size = Math.min(1000, Math.floor((times.length - warm) / 3));
	return { first: times.slice(warm, warm + size), last: times.slice(times.length - size) };
}

interface Case {
	id: string;
	args: PureArgs;
	label: string;
}

function check(label: string, args: PureArgs, answer: PureAnswer): void {
	if (
		args.recheck &&
		(answer.restatedEmitted !== answer.restatedExpected || answer.wrongPrevious !== 0)
	) {
		throw new WrongData(
			`trigger ${label}: emitted ${answer.restatedEmitted} restated rows (${answer.wrongPrevious} with other previous figures than last emitted); expected each of the ${answer.restatedExpected} restatements within the re-checked hours once`,
		);
	}
	if (
		args.emit === 'completed' &&
		(answer.emitted - answer.restatedEmitted !== answer.settledRows || answer.repeated !== 0)
	) {
		throw new WrongData(
			`trigger ${label}: emitted ${answer.emitted - answer.restatedEmitted} rows besides restatements (${answer.repeated} more than once); expected each of ${answer.settledRows} settled rows once`,
		);
	}
	if (args.emit === 'everyChange' && answer.emitted < answer.settledRows) {
		throw new WrongData(
			`trigger ${label}: emitted ${answer.emitted} rows, fewer than the ${answer.settledRows} settled`,
		);
	}
}

interface PollSummary {
	stateBytes: number[];
	/** Median poll time of the early and of the last polls. */
	firstMs: number;
	lastMs: number;
	block: number;
}

/** Everything but the per-poll times (10,000 numbers each), which stay out of results.json. */
function summarize<T extends { stateBytes: number[]; pollMs: number[] }>(
	answer: T,
): Omit<T, 'pollMs'> & PollSummary {
	const { pollMs, ...rest } = answer;
	const { first, last } = blocks(pollMs);
	return { ...rest, firstMs: median(first), lastMs: median(last), block: first.length };
}

/** Per case: its summary and the counts it was checked with. */
type TriggerRaw = Record<string, PollSummary>;

export async function triggerBench(
	options: TriggerOptions,
	log: (text: string) => void,
): Promise<{ lines: Line[]; raw: TriggerRaw }> {
	log('3. Trigger');
	const every = Math.max(1, Math.floor(options.polls / 10));
	const cases: Case[] = [
		{
			id: '3a',
			label: 'Completed Periods, hourly, grouped by ad',
			args: { polls: options.polls, emit: 'completed', grouping: 'ad', every },
		},
		{
			id: '3b',
			label: 'Every Change, hourly, grouped by campaign',
			args: { polls: options.polls, emit: 'everyChange', grouping: 'campaign', every },
		},
		{
			id: '3d',
			label:
				'Completed Periods + Re-Check Last 2 Periods, hourly, grouped by campaign, a row restated every 3 polls',
			args: {
				polls: options.polls,
				emit: 'completed',
				grouping: 'campaign',
				every,
				recheck: 2,
				restateEvery: 3,
			},
		},
		{
			id: '3c',
			label: 'Every Change, hourly, grouped by ad',
			args: {
				polls: options.adChangePolls,
				emit: 'everyChange',
				grouping: 'ad',
				every: Math.max(1, Math.floor(options.adChangePolls / 10)),
			},
		},
	];
	const lines: Line[] = [];
	const raw = {} as TriggerRaw;
	for (const c of cases) {
		// A fresh process per case, so one case's garbage never lands in another's poll times.
		const child = new Child('trigger/worker.ts');
		let answer: PureAnswer;
		try {
			answer = await child.call<PureAnswer>('pure', c.args);
		} finally {
			await child.stop();
		}
		check(c.label, c.args, answer);
		const summary = summarize(answer);
		const { firstMs, lastMs, block } = summary;
		const maxState = Math.max(...answer.stateBytes);
		raw[c.label] = summary;
		log(
			`  ${c.label}: state ${answer.stateBytes.join(', ')} bytes; poll ${formatMs(firstMs)} → ${formatMs(lastMs)}${c.args.recheck ? `; ${answer.restatedEmitted} restated rows emitted for the ${answer.restatedExpected} restatements within the re-checked hours (${answer.restatementsMade} made)` : ''}`,
		);
		const size = `${c.args.polls.toLocaleString('en-US')} polls, ${answer.rowsPerHour} rows an hour`;
		lines.push(
			{
				id: c.id,
				what: `${c.label} (${size}): largest state of ${answer.stateBytes.length} samples`,
				goal: '≤ 8 KB',
				measured: formatBytes(maxState),
				ratio: maxState / STATE_LIMIT,
				limit: 1,
			},
			{
				id: c.id,
				what: `${c.label}: median poll, last ${block} vs early ${block}`,
				goal: `flat (≤ ${FLAT_LIMIT}×)`,
				measured: `${formatMs(lastMs)} vs ${formatMs(firstMs)}`,
				ratio: lastMs / firstMs,
				limit: FLAT_LIMIT,
			},
		);
		if (c.args.recheck) {
			const perRow = maxState / (c.args.recheck * answer.rowsPerHour);
			lines.push({
				id: c.id,
				what: `${c.label}: restated rows emitted (each marked, with the figures last emitted) per restatement within the re-checked hours; state ${Math.round(perRow)} B per row held`,
				goal: 'each once',
				measured: `${answer.restatedEmitted} of ${answer.restatedExpected} (${answer.restatementsMade - answer.restatedExpected} made a third hour back: none)`,
				ratio: answer.restatedEmitted / Math.max(1, answer.restatedExpected),
				limit: 1,
			});
		}
	}
	if (options.realPolls > 0) {
		const child = new Child('trigger/worker.ts');
		let answer: RealAnswer;
		try {
			answer = await child.call<RealAnswer>('real', {
				polls: options.realPolls,
				every: Math.max(1, Math.floor(options.realPolls / 10)),
			});
		} finally {
			await child.stop();
		}
		const summary = summarize(answer);
		const { firstMs, lastMs, block } = summary;
		const maxState = Math.max(...answer.stateBytes);
		raw['real polls'] = summary;
		log(
			`  real polls: state ${answer.stateBytes.join(', ')} bytes; poll ${formatMs(firstMs)} → ${formatMs(lastMs)}`,
		);
		lines.push(
			{
				id: '3r',
				what: `real polls through n8n-core's PollContext + sandbox (${options.realPolls}, Every Change by campaign): largest state`,
				goal: '≤ 8 KB',
				measured: formatBytes(maxState),
				ratio: maxState / STATE_LIMIT,
				limit: 1,
			},
			{
				id: '3r',
				what: `real polls: median poll, last ${block} vs early ${block} (the in-process sandbox's share: ${formatMs(answer.handlerMs / options.realPolls)} a poll)`,
				goal: `flat (≤ ${FLAT_LIMIT}×)`,
				measured: `${formatMs(lastMs)} vs ${formatMs(firstMs)}`,
				ratio: lastMs / firstMs,
				limit: FLAT_LIMIT,
			},
		);
	}
	return { lines, raw };
}
