/**
 * The three ways of pulling the same statistics that the bench compares. Each returns the rows as
 * plain objects (to check them) and everything its engine still holds at the end (to measure it).
 */
import type { IDataObject, IHttpRequestOptions, INode, INodeExecutionData } from 'n8n-workflow';
import { Agent, request } from 'undici';
import { runNode, runWorkflow } from '../../harness';
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import {
	credentialsOf,
	statsBody,
	statsParameters,
	type RowSource,
	type StatsWorkload,
} from './workload';

export type SubjectName = 'floor' | 'n8nHttp' | 'ours' | 'oursSequential' | 'peer';

export const SUBJECTS: SubjectName[] = ['floor', 'n8nHttp', 'ours', 'peer'];

export const SUBJECT_LABEL: Record<SubjectName, string> = {
	floor: 'bare undici loop, keep-alive (parse + keep rows)',
	n8nHttp: "bare loop through n8n's outbound HTTP helper (parse + keep rows)",
	ours: 'Ad Cabinet Stats node, Return All',
	oursSequential: 'Ad Cabinet Stats node, Return All, Requests at Once 1 (one page after another)',
	peer: 'HTTP Request node (Pagination) + Split Out',
};

interface Pulled {
	/** The rows, read where the subject keeps them (no copy, so none is timed). */
	rows: RowSource;
	held: unknown;
}

function itemRows(items: INodeExecutionData[]): RowSource {
	return { length: items.length, at: (i) => items[i].json };
}

function arrayRows(rows: IDataObject[]): RowSource {
	return { length: rows.length, at: (i) => rows[i] };
}

let agent: Agent | undefined;

/**
 * The floor: the least any consumer must do to hold every row. A keep-alive undici Agent, one POST
 * per page, each body parsed and its rows appended to one array.
 */
async function floor(workload: StatsWorkload): Promise<Pulled> {
	agent ??= new Agent({ keepAliveTimeout: 30_000 });
	const rows: IDataObject[] = [];
	const headers = {
		authorization: `Bearer ${workload.token}`,
		'content-type': 'application/json',
		accept: 'application/json',
	};
	let body: Record<string, unknown> = statsBody(workload);
	for (;;) {
		const response = await request(`${workload.baseUrl}/api/v1/stats/page`, {
			method: 'POST',
			headers,
			body: JSON.stringify(body),
			dispatcher: agent,
		});
		const text = await response.body.text();
		if (response.statusCode !== 200)
			throw new Error(`floor: HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
		const page = JSON.parse(text) as { rows: IDataObject[]; cursor: string | null };
		for (const row of page.rows) rows.push(row);
		if (!page.cursor) return { rows: arrayRows(rows), held: rows };
		body = { cursor: page.cursor };
	}
}

/**
 * Not a goal, an explanation: the floor's loop, but each page through the helper that n8n's
 * httpRequestWithAuthentication ends in (axios, a new connection per request), with the options
 * our transport passes. The gap from the floor is n8n's HTTP layer; the gap to ours is the node.
 */
async function n8nHttp(workload: StatsWorkload): Promise<Pulled> {
	const http = Container.get(OutboundHttp).requests();
	const rows: IDataObject[] = [];
	let body: Record<string, unknown> = statsBody(workload);
	for (;;) {
		const options: IHttpRequestOptions = {
			method: 'POST',
			url: `${workload.baseUrl}/api/v1/stats/page`,
			body: JSON.stringify(body),
			arrayFormat: 'repeat',
			returnFullResponse: true,
			json: false,
			encoding: 'text',
			timeout: 60_000,
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json',
				Authorization: `Bearer ${workload.token}`,
			},
		};
		const response = (await http.request(options)) as { body: string; statusCode: number };
		const page = JSON.parse(response.body) as { rows: IDataObject[]; cursor: string | null };
		for (const row of page.rows) rows.push(row);
		if (!page.cursor) return { rows: arrayRows(rows), held: rows };
		body = { cursor: page.cursor };
	}
}

/** Ours: the Stats node's Statistic → Get Many with Return All, run by n8n-core's WorkflowExecute. */
async function ours(workload: StatsWorkload): Promise<Pulled> {
	const result = await runNode({
		type: 'adCabinetStats',
		parameters: statsParameters(workload),
		credentials: credentialsOf(workload),
	});
	if (result.error) throw result.error;
	// The whole run stays referenced, as n8n keeps every node's output until the execution ends.
	return { rows: itemRows(result.items), held: result };
}

/**
 * The peer: how a user would pull the same rows without our package. n8n's HTTP Request node with
 * the Ad Cabinet credential (Authorization header), its Pagination option following the cursor in
 * the body until it is null, then Split Out on `rows`. Same engine as ours.
 */
async function peer(workload: StatsWorkload): Promise<Pulled> {
	const credentials = { adCabinetApi: { id: 'cred-1', name: 'Ad Cabinet sandbox' } };
	const nodes: INode[] = [
		{
			id: 'input-id',
			name: 'Input',
			type: 'harness.input',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: '[{"json":{}}]' },
		},
		{
			id: 'http-id',
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [200, 0],
			credentials,
			parameters: {
				method: 'POST',
				url: `${workload.baseUrl}/api/v1/stats/page`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'adCabinetApi',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'json',
				jsonBody: JSON.stringify(statsBody(workload)),
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [
									{ type: 'body', name: 'cursor', value: '={{ $response.body.cursor }}' },
								],
							},
							paginationCompleteWhen: 'other',
							completeExpression: '={{ $response.body.cursor === null }}',
							...(workload.requestIntervalMs
								? { requestInterval: workload.requestIntervalMs }
								: {}),
						},
					},
				},
			},
		},
		{
			id: 'split-id',
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
			parameters: { fieldToSplitOut: 'rows', include: 'noOtherFields', options: {} },
		},
	];
	const result = await runWorkflow({
		nodes,
		connections: {
			Input: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] },
			'HTTP Request': { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] },
		},
		credentials: { adCabinetApi: credentialsOf(workload) },
	});
	if (result.error) throw result.error;
	return { rows: itemRows(result.nodes['Split Out']?.outputs[0] ?? []), held: result };
}

export const RUN: Record<SubjectName, (workload: StatsWorkload) => Promise<Pulled>> = {
	floor,
	n8nHttp,
	ours,
	oursSequential: (workload) => ours({ ...workload, parallelRequests: 1 }),
	peer,
};
