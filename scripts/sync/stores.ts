/**
 * The two stores the sync workflows write to, read straight from PostgreSQL: the Postgres node's
 * table in the stage's own `sync` database, and the n8n data table, which n8n keeps as a table of
 * its own database (`data_table_user_<id>`). Both are made to take a while per row written (a
 * trigger that sleeps), as a store across a network does, so that a worker killed mid-run is killed
 * while its store node is writing.
 */
import { join } from 'node:path';
import type { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import { figuresOf, identityOf, type HeldRow } from '../lib/rowFigures';

/** The columns the Stats node's Simplify gives a row by campaign, and their types in each store. */
const COLUMNS: Array<{
	name: string;
	sql: string;
	dataTable: 'string' | 'number' | 'date';
}> = [
	{ name: 'row_key', sql: 'text PRIMARY KEY', dataTable: 'string' },
	{ name: 'period_date', sql: 'timestamptz', dataTable: 'date' },
	{ name: 'platform_cabinet_name', sql: 'text', dataTable: 'string' },
	{ name: 'campaign_id', sql: 'bigint', dataTable: 'number' },
	{ name: 'campaign_name', sql: 'text', dataTable: 'string' },
	{ name: 'exchanged_spent', sql: 'numeric', dataTable: 'number' },
	{ name: 'exchange_currency', sql: 'text', dataTable: 'string' },
	{ name: 'views', sql: 'bigint', dataTable: 'number' },
	{ name: 'clicks', sql: 'bigint', dataTable: 'number' },
	{ name: 'actions', sql: 'bigint', dataTable: 'number' },
	{ name: 'ctr', sql: 'numeric', dataTable: 'number' },
	{ name: 'cpc', sql: 'numeric', dataTable: 'number' },
	{ name: 'cpm', sql: 'numeric', dataTable: 'number' },
	{ name: 'cpa', sql: 'numeric', dataTable: 'number' },
	{ name: 'cvr', sql: 'numeric', dataTable: 'number' },
];

interface PgClient {
	connect(): Promise<void>;
	query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: T[] }>;
	end(): Promise<void>;
}

export interface Stores {
	/** The table of the Postgres node and the data table, as rows. */
	read(store: StoreName): Promise<HeldRow[]>;
	/** Whether the store node is writing now (a statement running, or rows written since `sinceMs`). */
	writing(store: StoreName, sinceMs: number): Promise<number>;
	dataTableId: string;
	end(): Promise<void>;
}

export type StoreName = 'postgres' | 'dataTable';

const SLOW_ROW_SECONDS = 0.1;

const slowFunction = `CREATE OR REPLACE FUNCTION slow_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_sleep(${SLOW_ROW_SECONDS}); RETURN NEW; END $$`;

function client(runtime: N8nRuntime, port: number, database: string): PgClient {
	const pg = require(join(runtime.modulesDir, 'pg')) as {
		Client: new (
			options: Record<string, unknown>,
		) => PgClient & { on(event: 'error', listener: () => void): void };
	};
	const db = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database });
	// The server is stopped at the end of the stage, possibly before a client has ended.
	db.on('error', () => undefined);
	return db;
}

/** The `sync` database and its `ad_stats` table, as the Postgres example's note creates it. */
export async function createSyncTable(runtime: N8nRuntime, port: number): Promise<void> {
	const admin = client(runtime, port, 'postgres');
	await admin.connect();
	await admin.query('CREATE DATABASE sync');
	await admin.end();
	const db = client(runtime, port, 'sync');
	await db.connect();
	await db.query(`CREATE TABLE ad_stats (${COLUMNS.map((c) => `${c.name} ${c.sql}`).join(', ')})`);
	await db.query(slowFunction);
	// Insert or Update fires the insert trigger and, for a row that exists, the update one: half each.
	await db.query(
		slowFunction.replace(`pg_sleep(${SLOW_ROW_SECONDS})`, `pg_sleep(${SLOW_ROW_SECONDS / 2})`),
	);
	await db.query(
		'CREATE TRIGGER slow BEFORE INSERT OR UPDATE ON ad_stats FOR EACH ROW EXECUTE FUNCTION slow_row()',
	);
	await db.end();
}

/** The personal project of the signed-in owner, where the workflows and the data table live. */
async function personalProject(rest: N8nRest): Promise<string> {
	const project = await rest.request<{ id: string }>('GET', '/rest/projects/personal');
	return project.id;
}

/** Creates the data table `ad_stats` over REST, as the editor does; returns its id. */
export async function createDataTable(rest: N8nRest): Promise<string> {
	const projectId = await personalProject(rest);
	const table = await rest.request<{ id: string }>(
		'POST',
		`/rest/projects/${projectId}/data-tables`,
		{
			name: 'ad_stats',
			columns: COLUMNS.map((c) => ({ name: c.name, type: c.dataTable })),
		},
	);
	return table.id;
}

export async function openStores(
	runtime: N8nRuntime,
	port: number,
	dataTableId: string,
): Promise<Stores> {
	const sync = client(runtime, port, 'sync');
	const n8n = client(runtime, port, 'postgres');
	await sync.connect();
	await n8n.connect();
	const found = await n8n.query<{ schema: string; name: string }>(
		"SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_name LIKE 'data_table_user_%'",
	);
	const table = found.rows.find(
		(t) => t.name.toLowerCase() === `data_table_user_${dataTableId}`.toLowerCase(),
	);
	if (!table) {
		throw new Error(
			`no table of data table ${dataTableId} among ${found.rows.map((t) => `${t.schema}.${t.name}`).join(', ') || 'none'}`,
		);
	}
	const dataTable = `"${table.schema}"."${table.name}"`;
	await n8n.query(slowFunction);
	await n8n.query(
		`CREATE TRIGGER slow BEFORE INSERT OR UPDATE ON ${dataTable} FOR EACH ROW EXECUTE FUNCTION slow_row()`,
	);
	const toHeld = (row: Record<string, unknown>): HeldRow => {
		const period =
			row.period_date instanceof Date
				? row.period_date.getTime()
				: Date.parse(String(row.period_date));
		return {
			rowKey: String(row.row_key),
			identity: identityOf(period, row.campaign_id),
			figures: figuresOf(row),
		};
	};
	return {
		dataTableId,
		async read(store) {
			const rows =
				store === 'postgres'
					? (await sync.query('SELECT * FROM ad_stats')).rows
					: (await n8n.query(`SELECT * FROM ${dataTable}`)).rows;
			return rows.map(toHeld);
		},
		async writing(store, sinceMs) {
			if (store === 'postgres') {
				const { rows } = await n8n.query<{ n: string }>(
					"SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'sync' AND state = 'active' AND query ILIKE 'INSERT%'",
				);
				return Number(rows[0].n);
			}
			const { rows } = await n8n.query<{ n: string }>(
				`SELECT count(*) AS n FROM ${dataTable} WHERE "updatedAt" >= $1`,
				[new Date(sinceMs)],
			);
			return Number(rows[0].n);
		},
		async end() {
			await Promise.all([sync.end(), n8n.end()]);
		},
	};
}

/**
 * Waits until the store node of a run is well into writing: a third of the rows written (data
 * table), or its statement running for a second (PostgreSQL). Returns what was written by then,
 * or undefined when `lost()` says the run ended another way first; throws after 30 s.
 */
export async function untilWriting(
	stores: Stores,
	store: StoreName,
	rows: number,
	startedAt: number,
	lost: () => boolean,
): Promise<number | undefined> {
	const enough = store === 'dataTable' ? Math.ceil(rows / 3) : 1;
	const deadline = Date.now() + 30_000;
	let since = 0;
	for (;;) {
		if (lost()) return undefined;
		const writing = await stores.writing(store, startedAt - 1_000);
		if (writing >= enough) {
			since ||= Date.now();
			if (store === 'dataTable' || Date.now() - since >= 1_000) return lost() ? undefined : writing;
		}
		if (Date.now() >= deadline)
			throw new Error(`${store}: the store node did not write within 30 s`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
