/**
 * The three workflows of the month that write or alert, active the whole month on the one sign-in
 * credential, and the creatives the stage adds to their table:
 *
 *  creatives  examples/ads-from-sheet-rerun-safe.json with its sheet replaced by a PostgreSQL
 *             table: hourly, the rows without an ad ID → Ads 1.3 Create as shipped (Skip
 *             Identical) → the ad ID written back to the row; on the overlap days a second
 *             Schedule Trigger starts a second run at the same second (scripts/month/overlaps.ts).
 *  cpm        examples/cpm-rule.json as shipped (Dry Run off), hourly, its change log in the n8n
 *             data table `cpm_changes`.
 *  alerts     examples/alerts/ad-declined-to-telegram.json as shipped, its chat ID filled in and
 *             its Telegram credential's Base URL the stage's sink, which keeps every message.
 *
 * Each runs at minute 5, where the month's clock lands. The Ads Trigger of the alerts polls every
 * hour but those of the Ads run (every 6 hours), which fills the ad list's rate window alone: a poll
 * there would share the window with a run in another process that cannot know of it.
 */
import { readWorkflow, type Example, type WorkflowJson, type WorkflowNode } from '../lib/workflows';
import { ADS_EVERY_HOURS, MINUTE, MONTH_POSTGRES, example, scheduled } from './workflows';

export const CREATIVES_TABLE = 'creatives';
export const CHANGES_TABLE = 'cpm_changes';
const ALERT_CHAT = '-1001234567890';
/** A made-up bot token of the Bot API's form; the sink stands for the Bot API. */
const BOT_TOKEN = '7000000001:AAHmonthMadeUpTokenNotARealBot00042';
const TELEGRAM_CREDENTIAL = { id: 'telegramBot', name: 'Telegram bot' };
/** The path the Telegram node posts each message to, as the sink records it. */
export const SEND_PATH = `bot${BOT_TOKEN}/sendMessage`;

const postgres = { credentials: { postgres: { ...MONTH_POSTGRES } } };

function nodeOf(workflow: WorkflowJson, name: string, file: string): WorkflowNode {
	const node = workflow.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`${file} has no node "${name}"`);
	return node;
}

/**
 * The creatives example with a PostgreSQL table in place of the sheet, and `second` (when given), a
 * trigger that starts a second run at the same moment as the hourly one.
 */
export function creativesFlow(second?: WorkflowNode): Example {
	const file = 'ads-from-sheet-rerun-safe.json';
	const workflow = readWorkflow(file);
	nodeOf(workflow, 'Every hour', file).parameters = scheduled('Every hour', '*').parameters;
	if (second) {
		workflow.nodes.push(second);
		workflow.connections[second.name] = workflow.connections['Every hour'];
	}
	Object.assign(nodeOf(workflow, 'Get rows', file), {
		type: 'n8n-nodes-base.postgres',
		typeVersion: 2.6,
		parameters: {
			operation: 'executeQuery',
			query: `SELECT key, title, text, url, ad_id FROM ${CREATIVES_TABLE} ORDER BY key`,
			options: {},
		},
		...postgres,
	});
	Object.assign(nodeOf(workflow, 'Write ad_id back', file), {
		type: 'n8n-nodes-base.postgres',
		typeVersion: 2.6,
		parameters: {
			operation: 'update',
			schema: { __rl: true, mode: 'list', value: 'public' },
			table: { __rl: true, mode: 'name', value: CREATIVES_TABLE },
			columns: {
				mappingMode: 'defineBelow',
				value: {
					key: "={{ $('Rows without ad_id').item.json.key }}",
					ad_id: '={{ $json.ad_id }}',
				},
				matchingColumns: ['key'],
				schema: [
					{
						id: 'key',
						displayName: 'key',
						required: false,
						defaultMatch: false,
						display: true,
						type: 'string',
						canBeUsedToMatch: true,
					},
					{
						id: 'ad_id',
						displayName: 'ad_id',
						required: false,
						defaultMatch: false,
						display: true,
						type: 'number',
						canBeUsedToMatch: true,
					},
				],
			},
			options: {},
		},
		...postgres,
	});
	return example('creatives', { ...workflow, name: 'Month: ads from a table of creatives' });
}

/** The CPM rule as shipped, hourly at the month's minute. */
export function cpmFlow(): Example {
	const file = 'cpm-rule.json';
	const workflow = readWorkflow(file);
	nodeOf(workflow, 'Every hour', file).parameters = scheduled('Every hour', '*').parameters;
	return example('cpm', { ...workflow, name: 'Month: CPM rule' });
}

/** The hours of the day the Ads Trigger polls: every one but those of the Ads run. */
export const ALERT_HOURS = Array.from({ length: 24 }, (_, h) => h).filter(
	(h) => h % ADS_EVERY_HOURS !== 0,
);

/** The declined-ad alert as shipped, its chat filled in, polling at the month's minute. */
export function alertsFlow(): Example {
	const file = 'alerts/ad-declined-to-telegram.json';
	const workflow = readWorkflow(file);
	const trigger = nodeOf(workflow, 'Ad declined or on hold', file);
	trigger.parameters = {
		...trigger.parameters,
		pollTimes: {
			item: [{ mode: 'custom', cronExpression: `0 ${MINUTE} ${ALERT_HOURS.join(',')} * * *` }],
		},
	};
	const send = nodeOf(workflow, 'Send to Telegram', file);
	send.parameters = { ...send.parameters, chatId: ALERT_CHAT };
	return example('alerts', { ...workflow, name: 'Month: declined or held ad to Telegram' });
}

/** The bot's credential: the Bot API's address is the sink's. */
export function telegramCredential(sinkUrl: string) {
	return {
		...TELEGRAM_CREDENTIAL,
		type: 'telegramApi',
		data: { accessToken: BOT_TOKEN, baseUrl: sinkUrl },
	};
}

export const CREATIVES_DDL = `CREATE TABLE ${CREATIVES_TABLE} (key text PRIMARY KEY, title text NOT NULL, text text NOT NULL, url text NOT NULL, ad_id bigint, added_at text NOT NULL)`;

/** The change log's columns, as the recipe's sticky note names them. */
export const CHANGES_COLUMNS = [
	['ad_id', 'number'],
	['field', 'string'],
	['from_value', 'number'],
	['to_value', 'number'],
	['why', 'string'],
	['dry_run', 'boolean'],
	['run_at', 'string'],
].map(([name, type]) => ({ name, type }));

export interface Creative {
	key: string;
	title: string;
	text: string;
	url: string;
	/** The key of the row this one repeats with other whitespace, line ends or URL case. */
	repeats?: string;
}

const CHANNELS = ['berlin_startups', 'munich_makers', 'hamburg_harbour'];
const WORDS = ['Autumn', 'Winter', 'Harbour', 'Night', 'Weekend', 'Family', 'Studio', 'Garden'];

/**
 * The creatives of the month, by the hour they are added at: two new ones at 10:05 on two days of
 * three, a repeat of an earlier one (another whitespace, Windows line ends, the URL in capitals
 * with a trailing slash) on every other such day, and two new ones at each hour in `extraHours` (the
 * hours of the faults that hit creates).
 */
export function creativesPlan(days: number, extraHours: number[]): Map<number, Creative[]> {
	const plan = new Map<number, Creative[]>();
	const made: Creative[] = [];
	let n = 0;
	const fresh = (): Creative => {
		n += 1;
		const word = WORDS[n % WORDS.length];
		return {
			key: `c${String(n).padStart(3, '0')}`,
			title: `${word} offer ${n}`,
			text: `${word} deals in Berlin, creative ${n}\nOnly this week`,
			url: `https://t.me/${CHANNELS[n % CHANNELS.length]}`,
		};
	};
	const repeat = (of: Creative, k: number): Creative => {
		n += 1;
		const key = `c${String(n).padStart(3, '0')}`;
		const variants: Array<Partial<Creative>> = [
			{ title: `${of.title} ` },
			{ text: of.text.replace(/\n/g, '\r\n') },
			{ url: `${of.url.replace('https://t.me', 'HTTPS://T.ME')}/` },
			{ title: `  ${of.title}`, text: `${of.text}\r\n`, url: `${of.url}/` },
		];
		return { ...of, ...variants[k % variants.length], key, repeats: of.key };
	};
	const add = (hour: number, rows: Creative[]) => {
		plan.set(hour, [...(plan.get(hour) ?? []), ...rows]);
		made.push(...rows.filter((r) => !r.repeats));
	};
	let repeats = 0;
	for (let day = 0; day < days; day++) {
		if (day % 3 === 2) continue;
		const rows = [fresh(), fresh()];
		if (day % 2 === 1 && made.length > 0) {
			rows.push(repeat(made[(repeats * 5) % made.length], repeats));
			repeats += 1;
		}
		add(day * 24 + 10, rows);
	}
	for (const hour of extraHours) add(hour, [fresh(), fresh()]);
	return plan;
}
