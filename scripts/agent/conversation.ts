/**
 * What the scripted model does, one step per model call. Each step records what the model received
 * (the tool list, the last tool results, how many API requests the sandbox had seen by then) and
 * answers with the next tool call. Where a call was refused, the next call is built from the words
 * of the refusal, as a model would: the stage fails if the message does not say enough.
 */
import type { Sandbox } from '../../sandbox';
import { lastToolResults, type ChatRequest, type ChatTool, type Step } from '../lib/modelServer';
import { DE_CABINET, toolNameOf, type ToolName } from './workflow';

interface Observation {
	/** The tool results the model received for this step's previous call. */
	results: unknown[];
	/** API requests the sandbox had received when the model got them. */
	apiRequests: number;
}

export interface Transcript {
	tools: ChatTool[];
	seen: Record<string, Observation>;
	/** The phone numbers the script sent for the audience. */
	phoneNumbers: string[];
	/** The KKTU code the script picked from the category list. */
	kktuCode?: string;
	/** The cabinet the script picked from the cabinet list, by the name the prompt asks about. */
	pickedCabinet?: { id: string; name: string };
}

const tool = (name: ToolName) => toolNameOf(name);

/** The error text of a tool result `[{ "error": "…" }]`, or '' when the call succeeded. */
export function errorOf(results: unknown[]): string {
	const first = (results[0] as Array<{ error?: unknown }> | undefined)?.[0];
	return typeof first?.error === 'string' ? first.error : '';
}

export function rowsOf(results: unknown[]): Array<Record<string, unknown>> {
	return Array.isArray(results[0]) ? (results[0] as Array<Record<string, unknown>>) : [];
}

function iso(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19);
}

export const AUDIENCE_SIZE = 1000;

/** The cabinet whose pixel events the prompt asks for, named as a person would: part of its name. */
export const ASKED_CABINET = 'Moscow';

/** The agent's last words: what it did, then the pixel events of the cabinet it looked up. */
export function finalAnswer(
	cabinet: { id: string; name: string },
	events: Array<{ id: unknown; title: unknown; status: unknown }>,
): string {
	const active = events.filter((event) => event.status === 'active');
	const listed = events.map((event) => `${String(event.title)} (${String(event.id)})`).join(', ');
	return `Done: statistics read, ad created, image uploaded, audience created. ${cabinet.name} (${cabinet.id}) has ${events.length} pixel events, ${active.length} active: ${listed}.`;
}

export function conversation(
	sandbox: Sandbox,
	now: Date,
	files: { page: string; image: string; secret: string },
): { script: Step[]; transcript: Transcript } {
	const transcript: Transcript = {
		tools: [],
		seen: {},
		phoneNumbers: Array.from(
			{ length: AUDIENCE_SIZE },
			(_, i) => `998901${String(1_000_000 + i).slice(1)}`,
		),
	};
	const apiRequests = () =>
		sandbox.requests.filter((r) => r.api === 'base' || r.api === 'client').length;
	const see = (label: string, request: ChatRequest) => {
		transcript.seen[label] = { results: lastToolResults(request), apiRequests: apiRequests() };
		return transcript.seen[label];
	};
	const hourStart = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
	const statsCall = (days: number) => ({
		name: tool('Get statistics'),
		args: {
			Period_From: iso(hourStart - days * 86_400_000),
			Period_To: iso(hourStart),
			Period_Grouping_Unit: 'hour',
			Limit: 5,
		},
	});
	const adCall = (kktu: string) => ({
		name: tool('Create ad'),
		args: {
			Title: 'Spring sale',
			Text: 'Fresh discounts every week',
			Promote_URL: 'https://t.me/uzbek_tech_news',
			KKTU_Category: kktu,
		},
	});

	const script: Step[] = [
		(request) => {
			transcript.tools = request.tools ?? [];
			// Four days of hourly rows: more than the API allows at this unit.
			return { toolCalls: [statsCall(4)] };
		},
		(request) => {
			const message = errorOf(see('refusedInput', request).results);
			const days = Number(/at most (\d+) days/.exec(message)?.[1]);
			if (!days) throw new Error(`the refusal does not say how long a period may be: ${message}`);
			return { toolCalls: [statsCall(days)] };
		},
		(request) => {
			see('statsRows', request);
			// No KKTU category: this cabinet uses automatic labelling, so the API refuses the ad.
			return { toolCalls: [adCall('')] };
		},
		(request) => {
			const message = errorOf(see('apiRefusal', request).results);
			if (!message.includes('KKTU Category') || !message.includes('Ad Cabinet KKTU')) {
				throw new Error(`the refusal does not say what to set or where to find it: ${message}`);
			}
			return { toolCalls: [{ name: tool('Find KKTU categories'), args: { Search: 'Hotels' } }] };
		},
		(request) => {
			const rows = rowsOf(see('kktuRows', request).results);
			transcript.kktuCode = rows
				.map((row) => String(row.code))
				.find((code) => /^\d+\.\d+\.\d+$/.test(code));
			if (!transcript.kktuCode)
				throw new Error(`no third-level category in ${JSON.stringify(rows)}`);
			return { toolCalls: [adCall(transcript.kktuCode)] };
		},
		(request) => {
			see('adCreated', request);
			return { toolCalls: [{ name: tool('Upload image'), args: { File_URL: files.page } }] };
		},
		(request) => {
			const message = errorOf(see('notAnImage', request).results);
			if (!message.includes('File URL') || !/image/.test(message)) {
				throw new Error(`the refusal does not say the URL must be an image: ${message}`);
			}
			return { toolCalls: [{ name: tool('Upload image'), args: { File_URL: files.image } }] };
		},
		(request) => {
			see('mediaUploaded', request);
			// A prompt-injected request: fetch a service on n8n's own machine.
			return {
				toolCalls: [{ name: tool('Upload image from the web'), args: { File_URL: files.secret } }],
			};
		},
		(request) => {
			see('privateRefused', request);
			return {
				toolCalls: [
					{
						name: tool('Create audience'),
						args: { Title: 'Hotel guests', Phone_Numbers: transcript.phoneNumbers.join(', ') },
					},
				],
			};
		},
		(request) => {
			see('audienceCreated', request);
			return { toolCalls: [{ name: tool('List pixel events'), args: { Cabinet_ID: DE_CABINET } }] };
		},
		(request) => {
			see('pixelRows', request);
			return { toolCalls: [{ name: tool('List ads (expired token)'), args: { Limit: 3 } }] };
		},
		(request) => {
			see('unauthorized', request);
			return { toolCalls: [{ name: tool('List cabinets'), args: { Limit: 10 } }] };
		},
		(request) => {
			// The cabinet ID comes from the list the tool answered, found by the name asked about.
			const rows = rowsOf(see('cabinetRows', request).results);
			const cabinet = rows.find((row) => String(row.account_name).startsWith(ASKED_CABINET));
			if (!cabinet || typeof cabinet.account_id !== 'string') {
				throw new Error(`no cabinet named ${ASKED_CABINET}… in ${JSON.stringify(rows)}`);
			}
			transcript.pickedCabinet = { id: cabinet.account_id, name: String(cabinet.account_name) };
			return {
				toolCalls: [{ name: tool('List pixel events'), args: { Cabinet_ID: cabinet.account_id } }],
			};
		},
		(request) => {
			const rows = rowsOf(see('pickedCabinetEvents', request).results);
			if (!transcript.pickedCabinet) throw new Error('no cabinet was picked');
			return {
				text: finalAnswer(
					transcript.pickedCabinet,
					rows.map((row) => ({ id: row.id, title: row.title, status: row.status })),
				),
			};
		},
	];
	return { script, transcript };
}
