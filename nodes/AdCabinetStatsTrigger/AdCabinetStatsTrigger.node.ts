import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../shared/constants';
import { readDate } from '../shared/dates';
import { lookupSubtitle } from '../shared/subtitle';
import { getAdObjects } from '../shared/methods/adObjects';
import { getCabinets } from '../shared/methods/cabinets';
import { readCabinetIdList } from '../shared/cabinetId';
import { fetchStatsWindow } from '../shared/stats/window';
import { maxPeriodMs } from './periods';
import { claimPoll, triggerKey } from '../shared/pollsUnderWay';
import {
	currencyField,
	groupingField,
	numericValuesField,
	periodUnitField,
	statsFiltersFields,
} from '../shared/stats/fields';
import { readStatsQuery } from '../shared/stats/query';
import { PERIOD_UNIT_TERMS } from '../shared/vocabulary';
import { numericRow, rowKeyMaker } from '../shared/stats/rows';
import { FINE_UNIT_HISTORY_DAYS, FINE_UNITS, type PeriodUnit } from '../shared/stats/apiValues';
import { invalidInput } from '../shared/validation';
import {
	applyPoll,
	loadState,
	newState,
	settledBefore,
	shortHash,
	windowStart,
	type EmitMode,
	type PollSettings,
} from './pollState';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
/** Rows returned by "Fetch Test Event": enough to see the shape, few enough to read. */
const MANUAL_SAMPLE = 5;
/** From this version every row carries `row_key`. */
const ROW_KEY_VERSION = 1.1;
/** Versions whose Cabinet IDs filter is typed text; later ones choose the cabinets from a list. */
const CABINET_IDS_TYPED_IN = [1];
/** "Re-check Last N Periods" at most: the state holds the figures of every row of those periods. */
const MAX_RECHECK_PERIODS = 100;

/** Units whose completed periods arrive at most once a day. */
const LONG_UNITS = PERIOD_UNIT_TERMS.filter((term) => term.daily).map((term) => term.value);

/** The canvas subtitle's words for each unit: "Daily rows", "5-minute rows, every change". */
const UNIT_WORDS: Record<string, string> = Object.fromEntries(
	PERIOD_UNIT_TERMS.map((term) => [term.value, term.adjective]),
);

function defaultSettleMinutes(unit: PeriodUnit): number {
	return FINE_UNITS.has(unit) ? 15 : 60;
}

export class AdCabinetStatsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ad Cabinet Stats Trigger',
		name: 'adCabinetStatsTrigger',
		icon: { light: 'file:adCabinetStatsTrigger.svg', dark: 'file:adCabinetStatsTrigger.dark.svg' },
		group: ['trigger'],
		// 1.1: every row carries row_key; the cabinet filter is a list of the cabinets.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: lookupSubtitle(
			'periodGroupingUnit',
			UNIT_WORDS,
			' + ($parameter["emit"] === "everyChange" ? " rows, every change" : " rows")',
		),
		description: 'Starts the workflow with each new statistics row from the Ad Cabinet API',
		defaults: { name: 'Ad Cabinet Stats Trigger' },
		polling: true,
		// n8n gives every polling trigger its own Poll Times parameter, starting at every minute; a
		// node cannot change that default, so the panel says when it does not suit the unit.
		hints: [
			{
				message:
					'Poll Times is every minute, but a completed day, week, month or year arrives at most once a day. Every Hour is enough and asks the API 60 times less often.',
				type: 'info',
				location: 'ndv',
				whenToDisplay: 'always',
				displayCondition: `={{ ${JSON.stringify(LONG_UNITS)}.includes($parameter["periodGroupingUnit"]) && $parameter["emit"] !== "everyChange" && (($parameter["pollTimes"] || {}).item || []).some((time) => time.mode === "everyMinute") }}`,
			},
		],
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName:
					'Each row is emitted once its period has ended and settled (or on every change, if chosen); a restart of n8n neither loses nor repeats rows. Write them with an upsert (Append or Update, Insert or Update) on row_key.',
				name: 'triggerNotice',
				type: 'notice',
				default: '',
			},
			periodUnitField,
			groupingField,
			{
				displayName: 'Emit',
				name: 'emit',
				type: 'options',
				default: 'completed',
				options: [
					{
						name: 'Completed Periods',
						value: 'completed',
						description: 'Each row once, after its period has ended plus the settle delay',
					},
					{
						name: 'Every Change',
						value: 'everyChange',
						description: 'A row when first seen, and again whenever its figures change',
					},
				],
			},
			{
				displayName: 'Start From',
				name: 'startFrom',
				type: 'options',
				default: 'now',
				options: [
					{ name: 'Now', value: 'now', description: 'Emit nothing from before activation' },
					{ name: 'Date', value: 'date', description: 'Emit history from a date first (backfill)' },
				],
			},
			{
				displayName: 'Start Date',
				name: 'startDate',
				type: 'dateTime',
				default: '',
				required: true,
				displayOptions: { show: { startFrom: ['date'] } },
				description:
					'Rows of periods starting at or after this date are emitted first. Hour and minute units only have the last 5 days.',
			},
			currencyField,
			numericValuesField,
			...statsFiltersFields(undefined, CABINET_IDS_TYPED_IN),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Re-Check Last N Periods',
						name: 'recheckPeriods',
						type: 'number',
						default: 0,
						typeOptions: { minValue: 0, maxValue: MAX_RECHECK_PERIODS },
						description:
							'Ad platforms correct recent figures for days after a period ends (late clicks, refunds, fraud filtering). With N above 0, each poll also reads the last N periods already emitted again and emits each row whose figures changed since, with restated set to true and the figures it had under previous; other rows get restated false. 0 turns it off.',
					},
					{
						displayName: 'Settle Delay (Minutes)',
						name: 'settleMinutes',
						type: 'number',
						default: 60,
						typeOptions: { minValue: 0 },
						description:
							'How long after a period ends its figures are taken as final. Without this option: 60 for day, week, month and year; 15 for hour, 30 minutes and 5 minutes. Once added, the value set here (60 unless changed) applies to every unit.',
					},
				],
			},
		],
	};

	methods = {
		loadOptions: { getAdObjects, getCabinets },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const node = this.getNode();
		const now = new Date();
		const nowMs = now.getTime();
		const unit = this.getNodeParameter('periodGroupingUnit') as PeriodUnit;
		const emitMode = this.getNodeParameter('emit') as EmitMode;
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const numeric = this.getNodeParameter('numericValues', true) as boolean;
		const settleMinutes =
			(options.settleMinutes as number | undefined) ?? defaultSettleMinutes(unit);
		if (typeof settleMinutes !== 'number' || !(settleMinutes >= 0)) {
			throw invalidInput(
				node,
				'Settle Delay (Minutes)',
				'must be a number of minutes, 0 or more',
				0,
				settleMinutes,
			);
		}
		const recheck = (options.recheckPeriods as number | undefined) ?? 0;
		if (
			typeof recheck !== 'number' ||
			!Number.isInteger(recheck) ||
			recheck < 0 ||
			recheck > MAX_RECHECK_PERIODS
		) {
			throw invalidInput(
				node,
				'Re-Check Last N Periods',
				`must be a whole number from 0 to ${MAX_RECHECK_PERIODS}`,
				0,
				recheck,
			);
		}
		const base = readStatsQuery(
			(name, fallback) => this.getNodeParameter(name, fallback),
			{ from: '', to: '' },
			'period',
			CABINET_IDS_TYPED_IN.includes(node.typeVersion)
				? undefined
				: (raw) => readCabinetIdList(node, raw, 0),
		);
		const settings: PollSettings = {
			unit,
			grouping: base.grouping ?? [],
			emit: emitMode,
			settleMs: settleMinutes * MINUTE,
			recheck,
		};
		const fetchWindow = async (fromMs: number, toMs: number): Promise<IDataObject[]> =>
			await fetchStatsWindow.call(this, base, { fromMs, toMs, now });
		const oldestAvailable = FINE_UNITS.has(unit)
			? nowMs - FINE_UNIT_HISTORY_DAYS * DAY + MINUTE
			: -Infinity;
		const keyOf =
			node.typeVersion >= ROW_KEY_VERSION
				? rowKeyMaker(unit, base.currency_code, settings.grouping)
				: undefined;
		const shape = (rows: IDataObject[], restated?: Map<IDataObject, IDataObject | null>) =>
			rows.map((row) => {
				const json = numeric ? numericRow(row) : row;
				if (keyOf) json.row_key = keyOf(json);
				if (restated) {
					const previous = restated.get(json);
					json.restated = previous !== undefined;
					if (previous !== undefined)
						json.previous = previous && numeric ? numericRow(previous) : previous;
				}
				return { json };
			});

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": the latest settled rows, without touching the stored state.
			// Three of the longest periods back (plus settling) always hold the latest settled period.
			const from = Math.max(oldestAvailable, nowMs - 3 * (settings.settleMs + maxPeriodMs(unit)));
			const probe = applyPoll(newState('', from, false), await fetchWindow(from, nowMs), nowMs, {
				...settings,
				emit: 'completed',
			});
			const latest = probe.emit.slice(-MANUAL_SAMPLE);
			return latest.length ? [shape(latest, recheck > 0 ? new Map() : undefined)] : null;
		}

		// One poll of this trigger at a time (see pollsUnderWay.ts): a later one gives way.
		const endClaim = claimPoll(triggerKey(this.getWorkflow().id, node.id, node.name), nowMs);
		if (!endClaim) {
			this.logger.info(
				`Ad Cabinet Stats Trigger: the previous poll of "${node.name}" is still under way (it waits for the rate limit or the API), so this poll sends nothing; the next poll reads on from where that one ends`,
			);
			return null;
		}
		try {
			const fingerprint = shortHash(JSON.stringify([base, emitMode]));
			const staticData = this.getWorkflowStaticData('node');
			let state = loadState(staticData.adCabinetStats, fingerprint, nowMs, settings, (message) =>
				this.logger.warn(message),
			);
			if (!state) {
				const startFrom = this.getNodeParameter('startFrom') as 'now' | 'date';
				if (startFrom === 'date') {
					const raw = this.getNodeParameter('startDate') as unknown;
					const start = readDate(raw, this.getTimezone());
					if (!start)
						throw invalidInput(node, 'Start Date', 'must be a date such as 2026-11-01', 0, raw);
					if (start.ms < oldestAvailable) {
						throw invalidInput(
							node,
							'Start Date',
							`with the unit "${unit}" data exists only for the last ${FINE_UNIT_HISTORY_DAYS} days, so it must not be before ${new Date(oldestAvailable).toISOString()}`,
							0,
							raw,
						);
					}
					state = newState(fingerprint, start.ms, false);
				} else {
					// Look back one whole period so that what is already settled is recorded, not emitted.
					state = newState(fingerprint, settledBefore(nowMs, settings), true);
				}
			}
			let fromMs = state.wm;
			if (fromMs < oldestAvailable) {
				this.logger.warn(
					`Ad Cabinet Stats Trigger: rows before ${new Date(oldestAvailable).toISOString()} are no longer available for the unit "${unit}" and were skipped`,
				);
				fromMs = oldestAvailable;
			}
			// Re-checking reads the periods it keeps figures for again, as far back as they are available.
			if (recheck > 0) fromMs = Math.max(Math.min(fromMs, windowStart(state)), oldestAvailable);
			const rows = fromMs < nowMs ? await fetchWindow(fromMs, nowMs) : [];
			const { emit, next, restated } = applyPoll(state, rows, nowMs, settings);
			// The whole window arrived: only now is the state moved on.
			staticData.adCabinetStats = next as unknown as IDataObject;
			return emit.length ? [shape(emit, recheck > 0 ? restated : undefined)] : null;
		} finally {
			endClaim();
		}
	}
}
