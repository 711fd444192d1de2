import { createHash } from 'node:crypto';
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { invalidInput } from './validation';

/** What a write's guard decided before anything was sent (see `RoutedOperation.guardWrite`). */
export type WriteGuard =
	/** Send nothing and output this item instead (a dry run, or a write that would change nothing). */
	| { output: IDataObject }
	/**
	 * Send the write; `settle` hears what came of it (the items output, or undefined when it failed).
	 * After a write that succeeded, a `settle` that throws fails the item: the write was made, and the
	 * error says what it found afterwards (a twin made by another run at the same moment).
	 */
	| { settle?: (items: INodeExecutionData[] | undefined) => void | Promise<void> };

/** The options of a write that guard it, as read for one item. */
interface WriteOptions {
	dryRun: boolean;
	skipIdentical: boolean;
	skipUnchanged: boolean;
	cpmMin?: number;
	cpmMax?: number;
	budgetMax?: number;
	maxChangePercent?: number;
	maxChangePercentPerDay?: number;
}

const DRY_RUN: INodeProperties = {
	displayName: 'Dry Run',
	name: 'dryRun',
	type: 'boolean',
	default: false,
	description:
		'Whether to run every check and read but send no write: each item then shows the method, path and body a real run would send',
};

const MONEY: INodeProperties[] = [
	{
		displayName: 'CPM Min',
		name: 'cpmMin',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		description:
			'A CPM below this is refused before anything is sent. Without this option there is no lower bound.',
	},
	{
		displayName: 'CPM Max',
		name: 'cpmMax',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 10,
		description:
			'A CPM above this is refused before anything is sent. Without this option there is no upper bound.',
	},
	{
		displayName: 'Budget Max',
		name: 'budgetMax',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 1000,
		description:
			'A budget or daily budget above this is refused before anything is sent. Without this option there is no bound.',
	},
	{
		displayName: 'Max Change %',
		name: 'maxChangePercent',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 50,
		description:
			"An update that moves the ad's current CPM or daily budget by more than this percentage is refused before anything is sent. Without this option there is no bound.",
	},
];

const DAY_BOUND: INodeProperties = {
	displayName: 'Max Change % per Day',
	name: 'maxChangePercentPerDay',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 30,
	description:
		"An update that moves the ad's CPM or daily budget more than this percentage away from the value it had at the start of its day is refused before anything is sent. A day starts at the first change of that value and lasts 24 hours (to the next whole hour, so at most 25); it holds across executions of this node, in every n8n process. Without this option there is no daily bound, and Max Change % alone lets repeated updates walk a value step by step.",
};

const SKIP_IDENTICAL: INodeProperties = {
	displayName: 'Skip Identical',
	name: 'skipIdentical',
	type: 'boolean',
	default: true,
	description:
		"Whether to create nothing when the campaign already has a not-deleted ad with the same title, promote URL and text (or an earlier item of this run creates one); the item then shows that ad with skipped: true, so a rerun makes no second ad. They are compared as people read them: spaces around the title or text, Windows line ends, the case of the URL's scheme and host and a trailing slash do not count.",
};

const SKIP_UNCHANGED: INodeProperties = {
	displayName: 'Skip Unchanged',
	name: 'skipUnchanged',
	type: 'boolean',
	default: true,
	description:
		'Whether to read the ad first and send nothing when every field to change already has the given value; the item then shows skipped: true',
};

/** The Options collection of a write, shown from the node version that brought it. */
export function writeOptionsProperty(
	show: Record<string, string[]>,
	hideVersions: number[],
	kinds: {
		skipIdentical?: boolean;
		skipUnchanged?: boolean;
		money?: boolean;
		perDay?: boolean;
	} = {},
): INodeProperties {
	const options = [
		DRY_RUN,
		...(kinds.money ? MONEY : []),
		...(kinds.perDay ? [DAY_BOUND] : []),
		...(kinds.skipIdentical ? [SKIP_IDENTICAL] : []),
		...(kinds.skipUnchanged ? [SKIP_UNCHANGED] : []),
	].sort((a, b) => a.displayName.localeCompare(b.displayName));
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show, hide: { '@version': hideVersions } },
		options,
	};
}

function bound(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The options for one item. Skip Identical and Skip Unchanged are on unless switched off, from
 * `since` on: a saved workflow of an older node version keeps writing as it did.
 */
export function readWriteOptions(fx: IExecuteSingleFunctions, since: number): WriteOptions {
	const raw = fx.getNodeParameter('options', {}) as IDataObject;
	const current = fx.getNode().typeVersion >= since;
	return {
		dryRun: current && raw.dryRun === true,
		skipIdentical: current && raw.skipIdentical !== false,
		skipUnchanged: current && raw.skipUnchanged !== false,
		cpmMin: current ? bound(raw.cpmMin) : undefined,
		cpmMax: current ? bound(raw.cpmMax) : undefined,
		budgetMax: current ? bound(raw.budgetMax) : undefined,
		maxChangePercent: current ? bound(raw.maxChangePercent) : undefined,
		maxChangePercentPerDay: current ? bound(raw.maxChangePercentPerDay) : undefined,
	};
}

/** Whether a custom operation's item is a dry run (Dry Run under Options, from node version `since`). */
export function isDryRun(ctx: IExecuteFunctions, itemIndex: number, since: number): boolean {
	if (ctx.getNode().typeVersion < since) return false;
	const raw = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return raw.dryRun === true;
}

/**
 * A multipart body as a dry run shows it, read from the very form a real run sends: text parts as
 * they are, each file as its size, SHA-256 and file name (never the bytes themselves).
 */
export async function describeForm(form: FormData): Promise<IDataObject> {
	const shown: IDataObject = {};
	for (const [name, value] of form.entries()) {
		if (typeof value === 'string') {
			shown[name] = value;
			continue;
		}
		const bytes = new Uint8Array(await value.arrayBuffer());
		shown[name] = {
			bytes: bytes.length,
			sha256: createHash('sha256').update(bytes).digest('hex'),
			fileName: value.name,
		};
	}
	return shown;
}

/** The item a dry run outputs: the request as a real run would send it, and nothing sent. */
export function dryRunOutput(
	method: string,
	path: string,
	body: unknown,
	extra: IDataObject = {},
): IDataObject {
	return { dryRun: true, method, path, body: (body ?? null) as IDataObject, ...extra };
}

/** The guard of a write whose only option is Dry Run (from node version `since`). */
export function dryRunGuard(since: number) {
	return async function (
		this: IExecuteSingleFunctions,
		options: DeclarativeRestApiSettings.HttpRequestOptions,
	): Promise<WriteGuard | undefined> {
		if (!readWriteOptions(this, since).dryRun) return undefined;
		return { output: dryRunOutput(String(options.method), String(options.url), options.body) };
	};
}

const FIX = 'Fix the value or the bound and run again: repeating is safe.';
/** Refused before any request: nothing at all went out. */
const NOTHING_SENT = `Nothing was sent to the API, so nothing changed. ${FIX}`;
/** Refused after reading the ad, before any write. */
const NO_WRITE_SENT = `Only the ad was read; no write was sent, so nothing changed. ${FIX}`;

interface MoneyField {
	/** The body field, e.g. `cpm`. */
	api: string;
	/** As the panel names it. */
	label: string;
	kind: 'cpm' | 'budget';
}

/**
 * Refuses a money value outside the bounds set under Options, or (with `current`, the ad as read) one
 * that moves the current value by more than Max Change %. Thrown before any write is sent.
 */
export function checkMoney(
	node: INode,
	itemIndex: number,
	body: IDataObject,
	fields: MoneyField[],
	options: WriteOptions,
	current?: IDataObject,
): void {
	for (const field of fields) {
		const asked = body[field.api];
		if (typeof asked !== 'number') continue;
		const now = current === undefined ? undefined : current[field.api];
		const currently = typeof now === 'number' ? `; the ad's current ${field.label} is ${now}` : '';
		const refuse = (rule: string) => {
			throw invalidInput(
				node,
				field.label,
				`${rule}${currently}`,
				itemIndex,
				asked,
				current === undefined ? NOTHING_SENT : NO_WRITE_SENT,
			);
		};
		const min = field.kind === 'cpm' ? options.cpmMin : undefined;
		const max = field.kind === 'cpm' ? options.cpmMax : options.budgetMax;
		if (min !== undefined && asked < min) refuse(`must be at least ${min} (CPM Min under Options)`);
		if (max !== undefined && asked > max)
			refuse(
				`must be at most ${max} (${field.kind === 'cpm' ? 'CPM Max' : 'Budget Max'} under Options)`,
			);
		const limit = options.maxChangePercent;
		// A change from 0 or from no value has no percentage; the bounds above still hold for it.
		if (limit === undefined || typeof now !== 'number' || now === 0) continue;
		const moved = (Math.abs(asked - now) / Math.abs(now)) * 100;
		if (moved > limit + 1e-9)
			refuse(
				`may move the current value by at most ${limit}% (Max Change % under Options), and ${now} → ${asked} moves it by ${Math.round(moved * 100) / 100}%`,
			);
	}
}

function same(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** `{ field: { from, to } }` for every body field whose value differs from the current one. */
export function changesOf(
	body: IDataObject,
	currentOf: (field: string) => unknown,
): Record<string, { from: unknown; to: unknown }> {
	const changes: Record<string, { from: unknown; to: unknown }> = {};
	for (const [field, to] of Object.entries(body)) {
		const from = currentOf(field);
		if (!same(from, to)) changes[field] = { from: from === undefined ? null : from, to };
	}
	return changes;
}

const executions = new WeakMap<object, Map<string, Map<string, unknown>>>();

/**
 * A table shared by the items of one execution of one node (reads one item made that the next may
 * reuse). The node's execution context object is the key, so the table goes when the execution
 * does; where a runner provides none, each call gets a fresh table and nothing is shared.
 */
export function perExecution<T>(fx: IExecuteSingleFunctions, name: string): Map<string, T> {
	let key: object | undefined;
	try {
		key = fx.getContext('node');
	} catch {
		key = undefined;
	}
	if (!key) return new Map<string, T>();
	let tables = executions.get(key);
	if (!tables) {
		tables = new Map();
		executions.set(key, tables);
	}
	let table = tables.get(name);
	if (!table) {
		table = new Map();
		tables.set(name, table);
	}
	return table as Map<string, T>;
}

/** A promise with its resolve function, for an item that later items of the run wait on. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
	let resolve: (value: T) => void = () => undefined;
	const promise = new Promise<T>((r) => {
		resolve = r;
	});
	return { promise, resolve };
}
