import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { invalidInput } from '../../../shared/validation';
import {
	DayRecordBusy,
	DayRecordDamaged,
	openDay,
	readDayStart,
} from '../../../shared/store/dayStart';
import { sharedRecordsOf } from '../../../shared/store/records';
import { labelOf } from './fields/adFields';

/** The values Max Change % per Day bounds: what an ad spends, not its total budget. */
const DAY_FIELDS = ['cpm', 'daily_budget'];

const NOTHING_WRITTEN =
	'Only the ad and its day record were read; no write was sent, so nothing changed.';

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const rounded = (n: number) => Math.round(n * 100) / 100;

function refusedFor(fx: IExecuteSingleFunctions, why: string, cause?: unknown): NodeOperationError {
	const detail = cause instanceof Error ? ` The database's error: ${cause.message}` : '';
	return new NodeOperationError(
		fx.getNode(),
		`Max Change % per Day (under Options) could not be checked: ${why}. The update was refused rather than sent without its daily bound; no write was sent, so nothing changed and running it again is safe.`,
		{
			itemIndex: fx.getItemIndex(),
			description: `The daily bound is kept in n8n's own database (the records behind its deduplication helpers), shared by every n8n process.${detail}`,
		},
	);
}

/**
 * Max Change % per Day for one update: each bounded value the update changes must stay within the
 * percentage of the value the ad had at the start of its day (kept in the shared records), or of
 * its current value when no day is open. A real run (not Dry Run) opens the day before the write is
 * sent, so the next update, in any execution or process, is held to the same start value.
 */
export async function checkDayBound(
	fx: IExecuteSingleFunctions,
	adId: string,
	body: IDataObject,
	detail: IDataObject,
	percent: number,
	dryRun: boolean,
): Promise<void> {
	const changing = DAY_FIELDS.filter(
		(field) =>
			typeof body[field] === 'number' &&
			typeof detail[field] === 'number' &&
			body[field] !== detail[field],
	);
	if (changing.length === 0) return;
	let records;
	try {
		records = sharedRecordsOf(fx);
	} catch (error) {
		throw refusedFor(fx, (error as Error).message);
	}
	const toOpen: string[] = [];
	const now = Date.now();
	for (const field of changing) {
		const asked = body[field] as number;
		const current = detail[field] as number;
		let start;
		try {
			start = await readDayStart(records, adId, field, now);
		} catch (error) {
			if (error instanceof DayRecordBusy)
				throw refusedFor(
					fx,
					'another run was reading the same ad at the same moment each time; try again in a few seconds',
				);
			if (error instanceof DayRecordDamaged)
				throw refusedFor(
					fx,
					"this ad's day record was cut short by two runs writing at the same moment; it ends within 25 hours of its start",
				);
			throw refusedFor(fx, "n8n's database did not answer", error);
		}
		const from = start?.value ?? current;
		if (!start) toOpen.push(field);
		const moved = from === 0 ? 0 : (Math.abs(asked - from) / Math.abs(from)) * 100;
		if (moved <= percent + 1e-9) continue;
		const label = String(labelOf(field) ?? field);
		const low = rounded(from * (1 - percent / 100));
		const high = rounded(from * (1 + percent / 100));
		const since = start
			? `the value the ad had at the start of its day, before its first change; the day ends ${utc(start.endsAt)}`
			: "the ad's current value (no change in the last 24 hours)";
		throw invalidInput(
			fx.getNode(),
			label,
			`may move at most ${percent}% a day (Max Change % per Day under Options) from ${from}, ${since}; ${asked} is ${rounded(moved)}% from ${from}. Allowed now: ${low} to ${high}`,
			fx.getItemIndex(),
			asked,
			`${NOTHING_WRITTEN} Ask for a value within that range, or after the day ends; repeating is safe.`,
		);
	}
	if (dryRun) return;
	try {
		for (const field of toOpen) await openDay(records, adId, field, detail[field] as number, now);
	} catch (error) {
		throw refusedFor(fx, "n8n's database did not answer", error);
	}
}
