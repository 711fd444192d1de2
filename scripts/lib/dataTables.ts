/**
 * n8n data tables for the examples that write to one: created over REST as the editor creates them
 * (Overview → Data tables). n8n 1.x's Data Table node has version 1 only, which
 * finds its table by ID (from the list) and not by name: on that line the example's nodes are
 * pointed at the new table's ID, as a user picks it from the list.
 */
import type { N8nRest } from './rest';
import type { WorkflowNode } from './workflows';

export interface DataTableSpec {
	name: string;
	columns: Array<{ name: string; type: 'string' | 'number' | 'boolean' | 'date' }>;
}

const DATA_TABLE = 'n8n-nodes-base.dataTable';

async function tablesBase(rest: N8nRest): Promise<string> {
	const project = await rest.request<{ id: string }>('GET', '/rest/projects/personal');
	return `/rest/projects/${project.id}/data-tables`;
}

/** Creates each table; answers its ID by name. */
export async function createDataTables(
	rest: N8nRest,
	specs: DataTableSpec[],
): Promise<Map<string, string>> {
	const base = await tablesBase(rest);
	const ids = new Map<string, string>();
	for (const spec of specs) {
		const table = await rest.request<{ id: string }>('POST', base, spec);
		ids.set(spec.name, table.id);
	}
	return ids;
}

/** For n8n 1.x: each Data Table node as version 1, its table chosen by the ID of the one named. */
export function byTableId(
	workflow: { nodes: WorkflowNode[] },
	ids: Map<string, string>,
): { nodes: WorkflowNode[] } {
	const nodes = workflow.nodes.map((node) => {
		if (node.type !== DATA_TABLE) return node;
		const table = node.parameters.dataTableId as { value?: string } | undefined;
		const id = ids.get(String(table?.value));
		if (!id) return node;
		return {
			...node,
			typeVersion: 1,
			parameters: { ...node.parameters, dataTableId: { __rl: true, mode: 'id', value: id } },
		};
	});
	return { ...workflow, nodes };
}
