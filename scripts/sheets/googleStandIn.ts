/**
 * A local stand-in for the two Google hosts n8n's Google Sheets node calls with a service-account
 * credential, over HTTPS on 127.0.0.1:443 inside the stage's network namespace:
 *
 *   POST https://oauth2.googleapis.com/token                    (form: grant_type, assertion)
 *   GET  https://sheets.googleapis.com/v4/spreadsheets/{id}      (?fields=…)
 *   GET  …/v4/spreadsheets/{id}/values/{range}                   (?valueRenderOption, dateTimeRenderOption)
 *   PUT  …/v4/spreadsheets/{id}/values/{range}                   (?valueInputOption)
 *   POST …/v4/spreadsheets/{id}/values:batchUpdate               (body: valueInputOption, data)
 *   POST …/v4/spreadsheets/{id}:batchUpdate                      (body: requests[].appendDimension)
 *
 * It implements those and refuses anything else with 501, logging it, so that a call the node
 * starts making shows up. The token endpoint checks the signed assertion (RS256, against the
 * service account's public key, its issuer, audience and expiry) and the Sheets endpoints the
 * bearer token and its spreadsheets scope, as Google does.
 */
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { Server } from 'node:https';
import { closeServer, listenHttps } from '../lib/httpsStandIn';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
	a1Of,
	parseRange,
	renderCell,
	storeValue,
	type Cell,
	type InputOption,
	type Locale,
	type RenderOption,
} from './cells';

export const TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';
export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

export interface Tab {
	sheetId: number;
	title: string;
	rowCount: number;
	columnCount: number;
	/** rows[r][c]; missing = empty. */
	rows: Array<Array<Cell | undefined>>;
}

export interface Spreadsheet {
	id: string;
	title: string;
	locale: Locale;
	tabs: Tab[];
}

interface StandInCall {
	method: string;
	host: string;
	/** The path with ids and ranges replaced by {id} and {range}. */
	route: string;
	/** `name=value`, and for a Sheets call the body's valueInputOption and request kinds. */
	query: string[];
	status: number;
}

class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly reason: string,
		message: string,
	) {
		super(message);
	}
}

export class GoogleStandIn {
	readonly spreadsheets = new Map<string, Spreadsheet>();
	readonly calls: StandInCall[] = [];
	private readonly tokens = new Map<string, { scopes: string[]; expires: number }>();
	private readonly publicKey: KeyObject;
	private server?: Server;

	constructor(
		private readonly account: { email: string; publicKeyPem: string },
		private readonly tls: { key: string; cert: string },
	) {
		this.publicKey = createPublicKey(account.publicKeyPem);
	}

	addSpreadsheet(title: string, locale: Locale, tabTitles: string[]): Spreadsheet {
		const id = `1${randomBytes(21).toString('base64url')}`;
		const tabs = tabTitles.map((t, i) => ({
			sheetId: i === 0 ? 0 : 100_000 + i,
			title: t,
			rowCount: 1000,
			columnCount: 26,
			rows: [],
		}));
		const sheet = { id, title, locale, tabs };
		this.spreadsheets.set(id, sheet);
		return sheet;
	}

	async listen(port = 443): Promise<void> {
		this.server = await listenHttps(this.tls, port, (req, res) => this.handle(req, res));
	}

	async stop(): Promise<void> {
		await closeServer(this.server);
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', `https://${req.headers.host ?? 'unknown'}`);
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const text = Buffer.concat(chunks).toString('utf8');
		const call: StandInCall = {
			method: req.method ?? '',
			host: url.hostname,
			route: url.pathname,
			query: [...url.searchParams].map(([k, v]) => `${k}=${v}`).sort(),
			status: 0,
		};
		let status = 200;
		let body: unknown;
		try {
			if (url.hostname === 'oauth2.googleapis.com' && url.pathname === '/token') {
				call.route = '/token';
				body = this.token(req.method, text);
			} else if (url.hostname === 'sheets.googleapis.com') {
				body = this.sheets(req, url, text, call);
			} else {
				throw new ApiError(501, 'NOT_IMPLEMENTED', `the stand-in does not serve ${url.hostname}`);
			}
		} catch (error) {
			const e =
				error instanceof ApiError ? error : new ApiError(400, 'INVALID_ARGUMENT', String(error));
			status = e.status;
			body =
				call.route === '/token'
					? { error: e.reason, error_description: e.message }
					: { error: { code: e.status, message: e.message, status: e.reason } };
		}
		call.status = status;
		this.calls.push(call);
		res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
		res.end(JSON.stringify(body));
	}

	private token(method: string | undefined, text: string): unknown {
		if (method !== 'POST') throw new ApiError(405, 'invalid_request', 'POST only');
		const form = new URLSearchParams(text);
		if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
			throw new ApiError(400, 'unsupported_grant_type', `grant_type ${form.get('grant_type')}`);
		const [head, payload, signature] = (form.get('assertion') ?? '').split('.');
		const decode = (part: string) =>
			JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
		let header: Record<string, unknown>;
		let claims: Record<string, unknown>;
		try {
			header = decode(head);
			claims = decode(payload);
		} catch {
			throw new ApiError(400, 'invalid_grant', 'Invalid JWT: the assertion is not a JWT');
		}
		const signed = verify(
			'RSA-SHA256',
			Buffer.from(`${head}.${payload}`),
			this.publicKey,
			Buffer.from(signature ?? '', 'base64url'),
		);
		if (header.alg !== 'RS256' || !signed)
			throw new ApiError(400, 'invalid_grant', 'Invalid JWT Signature.');
		const now = Date.now() / 1000;
		if (claims.iss !== this.account.email)
			throw new ApiError(400, 'invalid_grant', 'Invalid grant: account not found');
		if (claims.aud !== TOKEN_AUDIENCE)
			throw new ApiError(400, 'invalid_grant', `Invalid JWT: audience ${String(claims.aud)}`);
		if (typeof claims.exp !== 'number' || claims.exp < now || Number(claims.iat) > now + 60)
			throw new ApiError(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token');
		const token = `ya29.standin-${randomBytes(24).toString('base64url')}`;
		const scopes = String(claims.scope ?? '').split(/\s+/);
		this.tokens.set(token, { scopes, expires: Date.now() + 3_600_000 });
		return { access_token: token, expires_in: 3599, token_type: 'Bearer' };
	}

	private sheets(req: IncomingMessage, url: URL, text: string, call: StandInCall): unknown {
		const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
		const grant = bearer ? this.tokens.get(bearer) : undefined;
		if (!grant || grant.expires < Date.now())
			throw new ApiError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
		if (!grant.scopes.includes(SHEETS_SCOPE))
			throw new ApiError(
				403,
				'PERMISSION_DENIED',
				'Request had insufficient authentication scopes.',
			);
		const m = /^\/v4\/spreadsheets\/([^/:]+)(.*)$/.exec(url.pathname);
		const sheet = m ? this.spreadsheets.get(m[1]) : undefined;
		if (m && !sheet) throw new ApiError(404, 'NOT_FOUND', 'Requested entity was not found.');
		const rest = m?.[2] ?? '';
		const q = url.searchParams;
		const json = () => (text ? (JSON.parse(text) as Record<string, unknown>) : {});
		// A range holds ':' ("Ad stats!A:Z"); a method suffix (":append", ":clear") is not implemented.
		const valuesPath = rest.startsWith('/values/') ? rest.slice('/values/'.length) : undefined;
		const values =
			valuesPath && !/:(append|clear|batch\w*)$/.test(valuesPath) ? [rest, valuesPath] : undefined;
		if (!sheet) {
			throw new ApiError(501, 'NOT_IMPLEMENTED', `not implemented: ${req.method} ${url.pathname}`);
		} else if (req.method === 'GET' && rest === '') {
			call.route = '/v4/spreadsheets/{id}';
			return this.metadata(sheet, q.get('fields'));
		} else if (req.method === 'GET' && values) {
			call.route = '/v4/spreadsheets/{id}/values/{range}';
			return this.read(sheet, decodeURIComponent(values[1]), renderOption(q));
		} else if (req.method === 'PUT' && values) {
			call.route = '/v4/spreadsheets/{id}/values/{range}';
			const body = json();
			return this.write(
				sheet,
				decodeURIComponent(values[1]),
				body.values,
				inputOption(q.get('valueInputOption')),
			);
		} else if (req.method === 'POST' && rest === '/values:batchUpdate') {
			call.route = '/v4/spreadsheets/{id}/values:batchUpdate';
			const body = json();
			const option = inputOption(body.valueInputOption);
			call.query.push(`body: valueInputOption=${option}`);
			const responses = ((body.data ?? []) as Array<{ range: string; values: unknown }>).map((d) =>
				this.write(sheet, d.range, d.values, option),
			);
			return {
				spreadsheetId: sheet.id,
				totalUpdatedCells: responses.reduce((n, r) => n + r.updatedCells, 0),
				responses,
			};
		} else if (req.method === 'POST' && rest === ':batchUpdate') {
			call.route = '/v4/spreadsheets/{id}:batchUpdate';
			const requests = (json().requests ?? []) as Array<Record<string, unknown>>;
			call.query.push(
				`body: requests[].${[...new Set(requests.flatMap((r) => Object.keys(r)))].join(',')}`,
			);
			return { spreadsheetId: sheet.id, replies: requests.map((r) => this.request(sheet, r)) };
		}
		throw new ApiError(501, 'NOT_IMPLEMENTED', `not implemented: ${req.method} ${url.pathname}`);
	}

	private metadata(sheet: Spreadsheet, fields: string | null): unknown {
		const sheets = sheet.tabs.map((t, index) => ({
			properties: {
				sheetId: t.sheetId,
				title: t.title,
				index,
				sheetType: 'GRID',
				gridProperties: { rowCount: t.rowCount, columnCount: t.columnCount },
			},
		}));
		if (fields === 'sheets.properties') return { sheets };
		return {
			spreadsheetId: sheet.id,
			properties: { title: sheet.title, locale: sheet.locale },
			sheets,
		};
	}

	tab(sheet: Spreadsheet, title: string): Tab {
		const tab = sheet.tabs.find((t) => t.title === title);
		if (!tab) throw new ApiError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${title}`);
		return tab;
	}

	private read(sheet: Spreadsheet, a1: string, option: RenderOption): unknown {
		const range = parseRange(a1);
		const tab = this.tab(sheet, range.sheet);
		const r0 = range.startRow ?? 0;
		const c0 = range.startCol ?? 0;
		const r1 = Math.min(range.endRow ?? tab.rowCount - 1, tab.rowCount - 1);
		const c1 = Math.min(range.endCol ?? tab.columnCount - 1, tab.columnCount - 1);
		const rows: Array<Array<string | number | boolean>> = [];
		for (let r = r0; r <= r1; r++) {
			const row: Array<string | number | boolean> = [];
			for (let c = c0; c <= c1; c++) row.push(renderCell(tab.rows[r]?.[c], option));
			while (row.length && row[row.length - 1] === '') row.pop();
			rows.push(row);
		}
		while (rows.length && rows[rows.length - 1].length === 0) rows.pop();
		const answer = { range: a1Of(tab.title, r0, c0, r1, c1), majorDimension: 'ROWS' };
		return rows.length ? { ...answer, values: rows } : answer;
	}

	private write(sheet: Spreadsheet, a1: string, values: unknown, option: InputOption) {
		if (!Array.isArray(values))
			throw new ApiError(400, 'INVALID_ARGUMENT', 'values must be a list');
		const range = parseRange(a1);
		const tab = this.tab(sheet, range.sheet);
		const r0 = range.startRow ?? 0;
		const c0 = range.startCol ?? 0;
		let cells = 0;
		let width = 0;
		for (const [i, row] of (values as unknown[][]).entries()) {
			const r = r0 + i;
			for (const [j, value] of row.entries()) {
				const cell = storeValue(value, option, sheet.locale);
				if (cell === null) continue;
				tab.rows[r] ??= [];
				tab.rows[r][c0 + j] = cell;
				cells++;
			}
			width = Math.max(width, row.length);
		}
		// Writing below the grid grows it here (the node appends a row before writing new rows).
		tab.rowCount = Math.max(tab.rowCount, r0 + values.length);
		tab.columnCount = Math.max(tab.columnCount, c0 + width);
		return {
			spreadsheetId: sheet.id,
			updatedRange: a1Of(
				tab.title,
				r0,
				c0,
				r0 + Math.max(values.length, 1) - 1,
				c0 + Math.max(width, 1) - 1,
			),
			updatedRows: values.length,
			updatedColumns: width,
			updatedCells: cells,
		};
	}

	private request(sheet: Spreadsheet, request: Record<string, unknown>): unknown {
		const append = request.appendDimension as
			{ sheetId?: unknown; dimension?: string; length?: number } | undefined;
		if (!append || Object.keys(request).length !== 1)
			throw new ApiError(
				501,
				'NOT_IMPLEMENTED',
				`not implemented: ${Object.keys(request).join(', ')}`,
			);
		const tab = sheet.tabs.find((t) => t.sheetId === Number(append.sheetId));
		if (!tab)
			throw new ApiError(400, 'INVALID_ARGUMENT', `No grid with id: ${String(append.sheetId)}`);
		if (append.dimension === 'ROWS') tab.rowCount += Number(append.length ?? 0);
		else if (append.dimension === 'COLUMNS') tab.columnCount += Number(append.length ?? 0);
		else throw new ApiError(400, 'INVALID_ARGUMENT', `dimension ${String(append.dimension)}`);
		return {};
	}
}

function inputOption(value: unknown): InputOption {
	if (value === 'RAW' || value === 'USER_ENTERED') return value;
	throw new ApiError(400, 'INVALID_ARGUMENT', `Invalid valueInputOption: ${String(value)}`);
}

function renderOption(q: URLSearchParams): RenderOption {
	const value = q.get('valueRenderOption') ?? 'FORMATTED_VALUE';
	if (value === 'FORMATTED_VALUE' || value === 'UNFORMATTED_VALUE' || value === 'FORMULA')
		return value;
	throw new ApiError(400, 'INVALID_ARGUMENT', `Invalid valueRenderOption: ${value}`);
}
