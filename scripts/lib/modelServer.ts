/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 (no network): every POST
 * …/chat/completions is recorded and answered by the next step of a script, with tool calls or a
 * final text. It also serves a few static files (GET /files/<name>), so a tool can download them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ToolCall {
	id: string;
	type: string;
	function: { name: string; arguments: string };
}

interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
	tool_calls?: ToolCall[];
}

export interface ChatTool {
	type: string;
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
	[key: string]: unknown;
}

type Reply =
	{ toolCalls: Array<{ name: string; args: Record<string, unknown> }> } | { text: string };

/** One step of the script: sees the request the model received, answers as the model. */
export type Step = (request: ChatRequest) => Reply;

interface StaticFile {
	type: string;
	body: Buffer | string;
}

export class ModelServer {
	/** Every chat request body, in order. */
	readonly requests: ChatRequest[] = [];
	/** Anything the script did not expect: unknown routes, steps that threw. */
	readonly problems: string[] = [];
	/** Files downloaded, by name. */
	readonly downloads: string[] = [];
	/** The steps, in order; set before the agent runs (they may need this server's file URLs). */
	script: Step[] = [];
	private server?: Server;
	private calls = 0;

	constructor(private readonly files: Record<string, StaticFile> = {}) {}

	get origin(): string {
		const address = this.server?.address() as AddressInfo;
		return `http://127.0.0.1:${address.port}`;
	}

	/** The base URL an OpenAI credential takes. */
	get apiUrl(): string {
		return `${this.origin}/v1`;
	}

	fileUrl(name: string): string {
		return `${this.origin}/files/${name}`;
	}

	async start(): Promise<void> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const url = req.url ?? '';
		if (req.method === 'GET' && url.startsWith('/files/')) {
			const name = decodeURIComponent(url.slice('/files/'.length));
			this.downloads.push(name);
			const file = this.files[name];
			if (!file) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
			return void res.writeHead(200, { 'content-type': file.type }).end(file.body);
		}
		if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
			this.problems.push(`unexpected ${req.method} ${url}`);
			return void res
				.writeHead(404, { 'content-type': 'application/json' })
				.end('{"error":{"message":"not found"}}');
		}
		const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
		this.requests.push(request);
		const step = this.script[this.requests.length - 1];
		let reply: Reply;
		try {
			reply = step ? step(request) : { text: 'The script has no more steps.' };
		} catch (error) {
			this.problems.push(`step ${this.requests.length}: ${(error as Error).message}`);
			reply = { text: `Script error: ${(error as Error).message}` };
		}
		this.answer(res, request, reply);
	}

	private answer(res: ServerResponse, request: ChatRequest, reply: Reply): void {
		const message: ChatMessage =
			'text' in reply
				? { role: 'assistant', content: reply.text }
				: {
						role: 'assistant',
						content: null,
						tool_calls: reply.toolCalls.map((call) => ({
							id: `call_${++this.calls}`,
							type: 'function',
							function: { name: call.name, arguments: JSON.stringify(call.args) },
						})),
					};
		const finish = 'text' in reply ? 'stop' : 'tool_calls';
		const base = {
			id: `chatcmpl-${this.requests.length}`,
			created: 1_700_000_000,
			model: request.model ?? 'scripted',
		};
		const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
		if (request.stream) {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			const delta = {
				...message,
				tool_calls: message.tool_calls?.map((call, index) => ({ index, ...call })),
			};
			const chunk = (choice: unknown, extra = {}) =>
				`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...extra })}\n\n`;
			res.write(chunk({ index: 0, delta, finish_reason: null }));
			res.write(chunk({ index: 0, delta: {}, finish_reason: finish }, { usage }));
			return void res.end('data: [DONE]\n\n');
		}
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message, finish_reason: finish }],
				usage,
			}),
		);
	}
}

/** The tool results the model received since its last call: `[{ json }…]` or `[{ error }]`, parsed. */
export function lastToolResults(request: ChatRequest): unknown[] {
	const out: unknown[] = [];
	for (let i = request.messages.length - 1; i >= 0 && request.messages[i].role === 'tool'; i--) {
		const content = request.messages[i].content;
		const text = typeof content === 'string' ? content : JSON.stringify(content);
		try {
			out.unshift(JSON.parse(text) as unknown);
		} catch {
			out.unshift(text);
		}
	}
	return out;
}
