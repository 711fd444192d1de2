/** The context an entry of expectations.ts gets, and small helpers for writing entries. */
import type { LoggedRequest, Sandbox } from '../../sandbox';
import type { DataTableSpec } from './dataTables';
import type { Example, Item, RunData } from './workflows';

interface ExampleContext {
	example: Example;
	run: RunData;
	/** Output items of a node (its first output, last run); fails when the node did not run. */
	items(nodeName: string): Item[];
	/** A binary property of an output item, with its bytes as text. */
	file(
		nodeName: string,
		itemIndex?: number,
		key?: string,
	): { text: string; fileName?: string; mimeType?: string };
	/** A spreadsheet file (xlsx, …) of an output item, read with the library n8n itself uses. */
	sheet(
		nodeName: string,
		itemIndex?: number,
		key?: string,
	): { sheetNames: string[]; rows: unknown[][]; fileName?: string; mimeType?: string };
	/** API requests the sandbox received during this run, in order (control traffic left out). */
	requests: LoggedRequest[];
	/** The sandbox n8n talked to; `sandbox.data` is its state and ground truth after the run. */
	sandbox: Sandbox;
	/** When n8n started the execution, by its own clock: the day the workflow's dates are of. */
	startedAt: Date;
}

export interface ExampleExpectation {
	/**
	 * 'execute' (default): `n8n execute --id`. 'manual': POST /rest/workflows/:id/run, as the editor
	 * does, for a workflow that starts with a polling trigger or a Schedule Trigger.
	 */
	run?: 'execute' | 'manual';
	/**
	 * Changes the sandbox (and its twin, which the harness runs against) before the run, for an
	 * example that needs something the seed does not hold, such as an ad moderation declined.
	 */
	prepare?(sandbox: Sandbox): void;
	/** What the check proves, printed with its result. */
	title: string;
	check(ctx: ExampleContext): void | Promise<void>;
	/** Data tables the workflow writes to, created over REST before it runs. */
	dataTables?: DataTableSpec[];
	/** A second run in n8n right after the first (the harness runs it once), and what it must do. */
	rerun?: {
		title: string;
		check(ctx: Pick<ExampleContext, 'requests' | 'items' | 'sandbox'>): void | Promise<void>;
	};
}

export const DAY_MS = 24 * 60 * 60_000;

interface TreeNode {
	id: string;
	code: string;
	children: TreeNode[];
}

export function flatten(nodes: TreeNode[]): TreeNode[] {
	return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

export function utcDay(date: Date, offsetDays = 0): string {
	return new Date(
		Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + offsetDays),
	)
		.toISOString()
		.slice(0, 10);
}
