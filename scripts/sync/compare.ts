/**
 * What the sync stage compares: the rows the API answers now against the rows a store holds, by
 * identity (period and campaign), with the figures of each.
 */
import type { HeldRow } from '../lib/rowFigures';
import type { StoreName } from './stores';

export const STORE_LABEL: Record<StoreName, string> = {
	postgres: 'PostgreSQL table (Insert or Update on row_key)',
	dataTable: 'n8n data table (Upsert on row_key)',
};

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What one store showed in each step, for the closing lines. */
export interface Figures {
	expected?: number;
	held?: number;
	duplicates?: number;
	changedOnSecondRun?: number;
	restatedInApi?: number;
	updatedAfterRestatement?: number;
	heldAfterLostRun?: number;
	staleAfterLostRun?: number;
	writtenBeforeKill?: number;
	heldAfterNextRun?: number;
	equalAfterNextRun?: number;
}

interface Comparison {
	held: number;
	duplicates: number;
	missing: string[];
	unexpected: string[];
	different: string[];
}

export function compare(api: Map<string, string>, held: HeldRow[]): Comparison {
	const byIdentity = new Map<string, HeldRow[]>();
	for (const row of held)
		byIdentity.set(row.identity, [...(byIdentity.get(row.identity) ?? []), row]);
	const keys = new Set(held.map((row) => row.rowKey));
	const duplicates = Math.max(held.length - keys.size, held.length - byIdentity.size);
	return {
		held: held.length,
		duplicates,
		missing: [...api.keys()].filter((identity) => !byIdentity.has(identity)),
		unexpected: [...byIdentity.keys()].filter((identity) => !api.has(identity)),
		different: [...api]
			.filter(([identity, figures]) => byIdentity.get(identity)?.some((r) => r.figures !== figures))
			.map(([identity]) => identity),
	};
}

export function describe(c: Comparison, expected: number): string {
	return `${c.held} rows held of ${expected} expected, ${c.duplicates} duplicates, ${c.missing.length} missing, ${c.unexpected.length} unexpected, ${c.different.length} with other figures${c.different.length ? ` (${c.different.slice(0, 4).join(', ')})` : ''}`;
}

/** Identities whose figures differ between two views (rows absent from one count too). */
export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
	const identities = new Set([...before.keys(), ...after.keys()]);
	return [...identities].filter((identity) => before.get(identity) !== after.get(identity)).sort();
}

export const heldMap = (held: HeldRow[]) => new Map(held.map((row) => [row.identity, row.figures]));

/** What one store showed in each step, in one line for the end of the stage. */
export function closingLine(store: StoreName, f: Figures): string {
	return `${STORE_LABEL[store]}: rows expected ${f.expected ?? '?'}, held ${f.held ?? '?'}; duplicates ${f.duplicates ?? '?'}; changed by a second run ${f.changedOnSecondRun ?? '?'}; rows restated in the API ${f.restatedInApi ?? '?'}, updated ${f.updatedAfterRestatement ?? '?'}; after a lost run ${f.heldAfterLostRun ?? '?'} held, ${f.staleAfterLostRun ?? '?'} stale${f.writtenBeforeKill !== undefined ? ` (${f.writtenBeforeKill} rows written before the kill)` : ''}; after the next run ${f.equalAfterNextRun ?? '?'} of ${f.expected ?? '?'} equal to the API.`;
}
