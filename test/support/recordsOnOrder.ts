import { RecordsModel, type StoreGate } from '../../harness/processedData';
import { MAX_RECORDS, oneAtATime, type SharedRecords } from '../../nodes/shared/store/records';
import type { Order } from './scheduler';

/** Where a call of one run fails: its `call`-th call (from 0), before its write or after it landed. */
export interface Failure {
	run: number;
	call: number;
	phase: 'before write' | 'after write';
}

class InjectedFailure extends Error {}

/** Each adapter's queue is its own: a search cuts orders short, leaving calls that never end. */
let adapters = 0;

/** What a call's texts are about, in a few words, for the order's trace. */
function summary(values: string[]): string {
	const kinds = new Set(
		values.map((text) =>
			text
				.replace(/^adCabinet /, '')
				.replace(/\|by [0-9a-f-]+$/, '|own')
				.replace(/witness\|.*/, 'witness')
				.replace(/\|digit \d+ is [0-9a-f]+$/, '|digits')
				.replace(/^(claim|done)\|[^|]*\|/, '$1|')
				.replace(/^day\|\d+\|cpm\|/, 'day|'),
		),
	);
	return [...kinds].join(', ');
}

/**
 * n8n's records (the model in harness/processedData.ts) as one run of a scenario reaches them: each
 * statement is a step of the run on `order`, and `failure` makes one of its calls fail.
 */
export function recordsOnOrder(
	model: RecordsModel,
	row: string,
	order: Order,
	run: number,
	failure?: Failure,
): SharedRecords & { calls: () => number } {
	let calls = 0;
	const gateOf = (): StoreGate => {
		const call = calls++;
		const fails = failure?.run === run && failure.call === call ? failure.phase : undefined;
		return async (step) => {
			if (step.statement === 'answered') {
				if (fails === 'after write')
					throw new InjectedFailure('the answer was lost after the write landed');
				return;
			}
			await order.step(run, {
				resource: `row ${step.row}`,
				write: step.statement !== 'select',
				label: `${step.call} ${step.statement} [${summary(step.values)}]`,
			});
			if (fails === 'before write' && step.statement !== 'select')
				throw new InjectedFailure('the call failed before its write');
		};
	};
	// Each run stands for one n8n process: its calls go one at a time, as sharedRecordsOf makes them.
	const queued = oneAtATime(`${row} in run ${run} of adapter ${adapters++}`, {
		async testAndRecord(texts) {
			if (texts.length === 0) return new Set();
			const out = await model.record(row, texts, MAX_RECORDS, gateOf());
			return new Set(out.processed.map(String));
		},
		async forget(texts) {
			if (texts.length === 0) return;
			await model.remove(row, texts, gateOf());
		},
	});
	return { ...queued, calls: () => calls };
}
