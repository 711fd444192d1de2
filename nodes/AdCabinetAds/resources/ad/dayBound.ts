import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { invalidInput } from '../../../shared/validation';
import { boundByDay, DayRecordDamaged, type DayRefusal } from '../../../shared/store/dayStart';
import { sharedRecordsOf } from '../../../shared/store/records';
import { isOutOfTime } from '../../../shared/store/clock';
import { guardClock, tidyOf } from './twoRuns';
import { letNextGuardGo } from '../../../shared/writeTurn';
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
	const options = {
		clock: guardClock(
			fx,
			`Ad ${adId} was not changed: recording the start of its day for Max Change % per Day needs a second more than this tool call has left`,
		),
		tidy: tidyOf(fx),
		// While this item waits for its day record's confirmation, the next item's guard does its reads.
		onConfirmWait: () => letNextGuardGo(fx),
	};
	const now = Date.now();
	// A tool call out of time answers as its clock said; nothing was sent.
	const failed = (error: unknown) =>
		isOutOfTime(error)
			? error
			: error instanceof DayRecordDamaged
				? refusedFor(
						fx,
						"this ad's day record was cut short by two runs writing at the same moment; it ends within 25 hours of its start",
					)
				: refusedFor(fx, "n8n's database did not answer", error);
	for (const field of changing) {
		const asked = body[field] as number;
		let refused: DayRefusal | undefined;
		try {
			refused = await boundByDay(
				records,
				{ adId, field, asked, current: detail[field] as number, percent },
				now,
				{ ...options, dryRun },
			);
		} catch (error) {
			throw failed(error);
		}
		if (refused) throw refusedByDay(fx, field, asked, percent, refused);
	}
}

function refusedByDay(
	fx: IExecuteSingleFunctions,
	field: string,
	asked: number,
	percent: number,
	refused: DayRefusal,
): NodeOperationError {
	const { from, day } = refused;
	const label = String(labelOf(field) ?? field);
	const since = day
		? `the value the ad had at the start of its day, before its first change; the day ends ${utc(day.endsAt)}`
		: "the ad's current value (no change in the last 24 hours)";
	const low = rounded(refused.low);
	const high = rounded(refused.high);
	const allowed =
		low <= high ? `Allowed now: ${low} to ${high}` : 'No value is allowed until the day ends';
	return invalidInput(
		fx.getNode(),
		label,
		`may move at most ${percent}% a day (Max Change % per Day under Options) from ${from}, ${since}; ${asked} is ${rounded(refused.moved)}% from ${from}. ${allowed}`,
		fx.getItemIndex(),
		asked,
		`${NOTHING_WRITTEN} Ask for a value within that range, or after the day ends; repeating is safe.`,
	);
}
