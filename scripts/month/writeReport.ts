/**
 * The write side of the month against the sandbox's ground truth: the creatives and the ads they
 * made, the CPM rule's PUTs and its change log, and the moderation decisions and their alerts. The
 * rules the checks apply are written again here, apart from the nodes' code, so that a wrong rule
 * there shows as a missed goal here.
 */
import type { Sandbox } from '../../sandbox';
import type { Month } from './setup';
import { ALERT_HOURS, CREATIVES_TABLE, SEND_PATH, type Creative } from './writeFlows';
import { isCreateRequest, isPutRequest } from './writeFaults';
import { HOUR } from './faults';
import { MINUTE } from './workflows';
import type { ExecutionRow } from './executions';
import { overlapMoments } from './overlaps';

type Row = Record<string, unknown>;

/** A title or text as a person reads it; a URL with its scheme and host in lower case, no trailing slash. */
const readable = (value: unknown) =>
	String(value ?? '')
		.replace(/\r\n?/g, '\n')
		.trim();
const readableUrl = (value: unknown) =>
	readable(value)
		.replace(/^([a-z][a-z\d+.-]*:\/\/[^/?#]*)/i, (head) => head.toLowerCase())
		.replace(/\/+(?=$|[?#])/, '');
export const identity = (campaign: unknown, title: unknown, url: unknown, text: unknown) =>
	JSON.stringify([String(campaign), readable(title), readableUrl(url), readable(text)]);

/** The recipe's settings (the CPM rule's Settings node), as shipped. */
function cpmSettings(m: Month): Record<string, number> {
	const node = m.flows.cpm.workflow.nodes.find((n) => n.name === 'Settings');
	const list = (node?.parameters.assignments as { assignments?: Array<Row> } | undefined)
		?.assignments;
	return Object.fromEntries((list ?? []).map((a) => [String(a.name), Number(a.value)]));
}

/** What the month watches as it goes: the rows it adds and the CPMs read back each hour. */
export class WriteWatch {
	readonly rows: Creative[] = [];
	/** The start of every hour that added rows (simulated ms). */
	readonly rowHoursMs: number[] = [];
	readonly cpmOutOfBounds: string[] = [];
	hoursChecked = 0;
	putLostLanded = false;
	/** Each hour's start (simulated ms) and the index of the first API request sent in it. */
	readonly hours: Array<{ atMs: number; fromRequest: number }> = [];

	constructor(private readonly m: Month) {}

	/** Adds creatives to the table, as someone fills in the sheet. */
	async addRows(rows: Creative[], atMs: number): Promise<void> {
		if (rows.length > 0) this.rowHoursMs.push(atMs);
		for (const row of rows) {
			await this.m.monthDb.query(
				`INSERT INTO ${CREATIVES_TABLE} (key, title, text, url, added_at) VALUES ($1, $2, $3, $4, $5)`,
				[row.key, row.title, row.text, row.url, new Date(atMs).toISOString()],
			);
			this.rows.push(row);
		}
	}

	/** An hour begins: the requests from this index on are its own. */
	noteHour(atMs: number, fromRequest: number): void {
		this.hours.push({ atMs, fromRequest });
	}

	/** The start of the hour in which the request at this index was sent. */
	hourOf(requestIndex: number): number | undefined {
		let at: number | undefined;
		for (const hour of this.hours) if (hour.fromRequest <= requestIndex) at = hour.atMs;
		return at;
	}

	/** Reads every ad of the rule's campaign back, as the API has it, after an hour. */
	checkCpm(hourLabel: string): void {
		const s = cpmSettings(this.m);
		this.hoursChecked += 1;
		for (const ad of this.m.sandbox.data.ads) {
			if (ad.campaignId !== s.campaignId || ad.status === 'deleted') continue;
			if (ad.fields.cpm < s.cpmMin || ad.fields.cpm > s.cpmMax)
				this.cpmOutOfBounds.push(`${hourLabel} ad ${ad.id} cpm ${ad.fields.cpm}`);
		}
	}
}

/**
 * The change log against the PUTs the API answered, by ad and value. A PUT of a run that a killed
 * process ended (its worker died between the PUT and the log) cannot be logged: n8n runs nothing
 * of an execution after its process is gone. Such PUTs are counted apart; any other answered PUT
 * missing from the log, and any log row beyond the answered PUTs, is a miss.
 */
export function matchLog(answered: Array<{ key: string; crashed: boolean }>, logged: string[]) {
	const all = countBy(answered.map((a) => a.key));
	const kept = countBy(answered.filter((a) => !a.crashed).map((a) => a.key));
	const rows = countBy(logged);
	let putsNotInLog = 0;
	let putsLoggedTwice = 0;
	for (const [k, n] of kept) putsNotInLog += Math.max(0, n - (rows.get(k) ?? 0));
	for (const [k, n] of all) putsLoggedTwice += Math.max(0, (rows.get(k) ?? 0) - n);
	const logWithoutPut = [...rows].reduce((n, [k, c]) => n + (all.has(k) ? 0 : c), 0);
	return {
		putsNotInLog,
		putsLoggedTwice,
		logWithoutPut,
		putsOfCrashedRuns: answered.filter((a) => a.crashed).length,
	};
}

function countBy(keys: string[]): Map<string, number> {
	const out = new Map<string, number>();
	for (const key of keys) out.set(key, (out.get(key) ?? 0) + 1);
	return out;
}

async function creativesFigures(m: Month, watch: WriteWatch) {
	const s = cpmSettings(m);
	const campaign = String(s.campaignId);
	const held = await m.monthDb.query<Row>(
		`SELECT key, title, text, url, ad_id FROM ${CREATIVES_TABLE}`,
	);
	const ads = m.sandbox.data.ads.filter(
		(ad) => String(ad.campaignId) === campaign && ad.status !== 'deleted',
	);
	const adIdentity = new Map(
		ads.map((ad) => [
			ad.id,
			identity(ad.campaignId, ad.fields.title, ad.fields.promote_url, ad.fields.text),
		]),
	);
	const adsOf = countBy([...adIdentity.values()]);
	const rowIdentity = (row: Row) => identity(campaign, row.title, row.url, row.text);
	const creatives = new Set(held.map(rowIdentity));
	const notOneAd = [...creatives].filter((id) => adsOf.get(id) !== 1);
	const wrongId = held.filter(
		(row) => row.ad_id === null || adIdentity.get(Number(row.ad_id)) !== rowIdentity(row),
	);
	const creates = m.sandbox.requests.filter(isCreateRequest);
	const made = m.sandbox.data.ads.slice(m.sandbox.data.seededAdCount);
	return {
		rows: held.length,
		rowsAdded: watch.rows.length,
		repeatRows: watch.rows.filter((r) => r.repeats).length,
		distinctCreatives: creatives.size,
		rowsWithAdId: held.filter((row) => row.ad_id !== null).length,
		creativesWithOneAd: creatives.size - notOneAd.length,
		rowsNotHoldingTheirAd: wrongId.length,
		adsMade: made.length,
		duplicateAds: [...adsOf.values()].reduce((n, c) => n + c - 1, 0),
		createRequests: creates.length,
		createsAnswered: creates.filter((r) => r.status === 201 && !r.fault).length,
		createAnswersLost: creates.filter((r) => r.fault === 'lost').length,
		createsRefused5xx: creates.filter((r) => r.status >= 500).length,
		examples: [
			...notOneAd.slice(0, 3).map((id) => `${adsOf.get(id) ?? 0} ads for ${id}`),
			...wrongId.slice(0, 3).map((row) => `row ${String(row.key)} holds ${String(row.ad_id)}`),
		],
	};
}

async function cpmFigures(m: Month, watch: WriteWatch, crashedCpmRuns: ExecutionRow[]) {
	const s = cpmSettings(m);
	const createNode = m.flows.creatives.workflow.nodes.find((n) => n.name === 'Create ad');
	const createdCpm = Number(createNode?.parameters.cpm);
	const current = new Map(m.cpmAtStart);
	const puts = m.sandbox.requests.filter(
		(r) => isPutRequest(r) && (r.fault === 'lost' || (r.status === 200 && !r.fault)),
	);
	let above = 0;
	let unchanged = 0;
	const aboveExamples: string[] = [];
	for (const put of puts) {
		const adId = Number(put.path.split('/').filter(Boolean).at(-1));
		const to = Number((put.body as Row).cpm);
		const from = current.get(adId) ?? createdCpm;
		if (to === from) unchanged += 1;
		if ((Math.abs(to - from) / from) * 100 > s.maxChangePercent + 1e-9) {
			above += 1;
			aboveExamples.push(`ad ${adId} ${from} → ${to}`);
		}
		current.set(adId, to);
	}
	const tables = await m.n8nDb.query<{ schema: string; name: string }>(
		'SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE lower(table_name) = lower($1)',
		[`data_table_user_${m.changesTable}`],
	);
	const log = tables[0]
		? await m.n8nDb.query<Row>(`SELECT * FROM "${tables[0].schema}"."${tables[0].name}"`)
		: [];
	const key = (adId: unknown, cpm: unknown) => `${Number(adId)}:${Number(cpm).toFixed(2)}`;
	// The hours in which a CPM run was ended by a killed process.
	const crashedHours = new Set(crashedCpmRuns.map((e) => Math.floor(e.createdAt / HOUR) * HOUR));
	const answered = m.sandbox.requests.flatMap((r, index) =>
		isPutRequest(r) && r.status === 200 && !r.fault
			? [
					{
						key: key(r.path.split('/').filter(Boolean).at(-1), (r.body as Row).cpm),
						crashed: crashedHours.has(watch.hourOf(index) ?? -1),
					},
				]
			: [],
	);
	const matched = matchLog(
		answered,
		log.map((row) => key(row.ad_id, row.to_value)),
	);
	return {
		putsAccepted: puts.length,
		putAnswersLost: puts.filter((r) => r.fault === 'lost').length,
		logRows: log.length,
		logDryRunRows: log.filter((row) => row.dry_run === true).length,
		...matched,
		changesAboveMaxPercent: above,
		putsWithoutChange: unchanged,
		cpmOutOfBounds: watch.cpmOutOfBounds.length,
		hoursReadBack: watch.hoursChecked,
		bounds: { cpmMin: s.cpmMin, cpmMax: s.cpmMax, maxChangePercent: s.maxChangePercent },
		examples: [...aboveExamples.slice(0, 3), ...watch.cpmOutOfBounds.slice(0, 3)],
	};
}

/** The last time the Ads Trigger polled in a month of `hours` steps from `startMs`. */
function lastAlertPoll(startMs: number, hours: number): number {
	for (let hour = hours - 1; hour >= 0; hour--)
		if (ALERT_HOURS.includes(hour % 24)) return startMs + hour * HOUR + MINUTE * 60_000;
	return startMs;
}

export function alertFigures(
	sandbox: Pick<Sandbox, 'data'>,
	messages: Row[],
	startMs: number,
	hours: number,
) {
	const until = lastAlertPoll(startMs, hours);
	const all = (sandbox.data.moderation?.decisions ?? []).filter(
		(d) => d.status === 'declined' || d.status === 'on_hold',
	);
	const due = all.filter((d) => d.atMs < until);
	const said = messages.map((body) => {
		const text = String(body.text ?? '');
		const id = /\(ad (\d+)\)/.exec(text)?.[1];
		const status = /<b>Ad declined<\/b>/.test(text) ? 'declined' : 'on_hold';
		return { key: `${id}:${status}`, text };
	});
	const byKey = new Map<string, string[]>();
	for (const s of said) byKey.set(s.key, [...(byKey.get(s.key) ?? []), s.text]);
	const missing = due.filter((d) => !byKey.has(`${d.adId}:${d.status}`));
	const keys = new Set(all.map((d) => `${d.adId}:${d.status}`));
	const withoutReasons = due.filter((d) => {
		const texts = byKey.get(`${d.adId}:${d.status}`) ?? [];
		return (
			texts.length > 0 &&
			!d.reasons.every((r) => texts[0].includes(String(r.reason).replace(/&/g, '&amp;')))
		);
	});
	return {
		decisions: due.length,
		declined: due.filter((d) => d.status === 'declined').length,
		onHold: due.filter((d) => d.status === 'on_hold').length,
		ofNewAds: due.filter((d) => d.kind === 'review').length,
		ofRunningAds: due.filter((d) => d.kind === 'running').length,
		afterLastPoll: all.length - due.length,
		allDecisions: (sandbox.data.moderation?.decisions ?? []).length,
		messages: said.length,
		delivered: due.length - missing.length,
		missing: missing.length,
		duplicates: [...byKey.values()].reduce((n, texts) => n + texts.length - 1, 0),
		unexpected: said.filter((s) => !keys.has(s.key)).length,
		withoutReasons: withoutReasons.length,
		examples: missing
			.slice(0, 5)
			.map((d) => `ad ${d.adId} ${d.status} at ${new Date(d.atMs).toISOString()}`),
	};
}

export async function writeReport(
	m: Month,
	watch: WriteWatch,
	startMs: number,
	hours: number,
	creativesRuns: ExecutionRow[],
	crashedCpmRuns: ExecutionRow[],
) {
	const creatives = await creativesFigures(m, watch);
	const overlaps = overlapMoments(creativesRuns, watch.rowHoursMs);
	const cpm = await cpmFigures(m, watch, crashedCpmRuns);
	const alerts = alertFigures(
		m.sandbox,
		m.sink.of(SEND_PATH).map((r) => r.body),
		startMs,
		hours,
	);
	const goals = [
		{
			goal: 'writes.adsPerRow: every creative made exactly one ad, and every row holds its own ad ID',
			met:
				creatives.creativesWithOneAd === creatives.distinctCreatives &&
				creatives.rowsNotHoldingTheirAd === 0,
			value: `${creatives.creativesWithOneAd} of ${creatives.distinctCreatives} creatives with one ad, ${creatives.rowsNotHoldingTheirAd} of ${creatives.rows} rows without their ad's ID`,
			why: creatives.examples.join('; '),
		},
		{
			goal: 'writes.overlaps at least 1: two creatives runs began at once with the same new rows',
			met: overlaps.overlaps >= 1,
			value: `${overlaps.overlaps}: ${overlaps.moments.map((o) => `${o.at} ${o.executions.join(' and ')} (${o.spreadMs} ms apart)`).join('; ')}`,
			why: 'no two runs of the creatives workflow began within a second of each other in an hour that added rows',
		},
		{
			goal: 'writes.duplicateAds is 0',
			met: creatives.duplicateAds === 0,
			value: String(creatives.duplicateAds),
			why: creatives.examples.join('; '),
		},
		{
			goal: 'writes.cpmOutOfBounds is 0 at every hour',
			met: cpm.cpmOutOfBounds === 0,
			value: `${cpm.cpmOutOfBounds} in ${cpm.hoursReadBack} hours read back`,
			why: cpm.examples.join('; '),
		},
		{
			goal: 'writes.changesAboveMaxPercent and writes.putsWithoutChange are 0',
			met: cpm.changesAboveMaxPercent === 0 && cpm.putsWithoutChange === 0,
			value: `${cpm.changesAboveMaxPercent} above, ${cpm.putsWithoutChange} without change`,
			why: cpm.examples.join('; '),
		},
		{
			goal: 'every change logged is one PUT the API answered, and every answered PUT is logged once (those of a run whose process a fault killed are counted apart: n8n runs nothing of it after)',
			met: cpm.putsNotInLog === 0 && cpm.putsLoggedTwice === 0 && cpm.logWithoutPut === 0,
			value: `${cpm.putsAccepted} PUTs (${cpm.putAnswersLost} answers lost), ${cpm.logRows} log rows, ${cpm.putsNotInLog} answered PUTs not logged, ${cpm.putsLoggedTwice} logged twice, ${cpm.logWithoutPut} log rows without a PUT, ${cpm.putsOfCrashedRuns} answered PUTs of runs a killed process ended`,
			why: 'the change log and the PUTs the API answered differ',
		},
		{
			goal: 'alerts: every declined or on_hold decision delivered exactly once, with its reasons',
			met: alerts.missing === 0 && alerts.duplicates === 0 && alerts.withoutReasons === 0,
			value: `${alerts.delivered} of ${alerts.decisions} delivered, ${alerts.missing} missing, ${alerts.duplicates} duplicates, ${alerts.withoutReasons} without their reasons`,
			why: alerts.examples.join('; '),
		},
	];
	return {
		writes: {
			adsPerRow: goals[0].met ? 'exactly one' : goals[0].value,
			duplicateAds: creatives.duplicateAds,
			overlaps: overlaps.overlaps,
			cpmOutOfBounds: cpm.cpmOutOfBounds,
			changesAboveMaxPercent: cpm.changesAboveMaxPercent,
			putsWithoutChange: cpm.putsWithoutChange,
			creatives,
			overlapMoments: overlaps,
			cpm,
		},
		alerts,
		goals,
	};
}
