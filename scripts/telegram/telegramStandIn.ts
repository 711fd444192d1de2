/**
 * A local stand-in for the Telegram Bot API (api.telegram.org), over HTTPS on 127.0.0.1:443
 * inside the stage's network namespace, for n8n's own Telegram node and its credential:
 *
 *   GET|POST /bot<token>/getMe
 *   POST     /bot<token>/sendMessage    (JSON, form or multipart: chat_id, text, parse_mode, …)
 *   POST     /bot<token>/sendDocument   (multipart: chat_id, document as a file, caption, …)
 *   POST     /bot<token>/setWebhook, getWebhookInfo, deleteWebhook (a Telegram Trigger's webhook)
 *
 * `deliver` then plays Telegram delivering a chat message to the webhook a trigger registered,
 * with the secret token the trigger gave.
 *
 * Answers are shaped as the Bot API's: `{ ok: true, result }`, or `{ ok: false, error_code,
 * description }` with the Bot API's wording for a wrong token (401), a chat the bot is not in
 * ("chat not found"), an empty or too long text, and HTML or Markdown it cannot parse ("can't parse
 * entities"). Any other method answers 404 "Not Found" and is recorded, so that a call the node
 * starts making shows up.
 */
import type { Server } from 'node:https';
import { closeServer, listenHttps } from '../lib/httpsStandIn';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { plainText } from './entities';

interface SentDocument {
	fileName: string;
	mimeType: string;
	content: Buffer;
}

interface BotCall {
	method: string;
	/** Whether the token in the path was the bot's. */
	authorized: boolean;
	/** The fields sent, as text (a file field is in `document`). */
	fields: Record<string, string>;
	document?: SentDocument;
	status: number;
	description?: string;
	messageId?: number;
}

class BotApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

/** Telegram counts a message's length after its entities are parsed, at most 4,096 characters. */
const MAX_TEXT = 4096;
const MAX_CAPTION = 1024;

export class TelegramStandIn {
	readonly calls: BotCall[] = [];
	readonly bot = {
		id: 7_000_000_001,
		is_bot: true,
		first_name: 'Ad Cabinet alerts',
		username: 'ad_cabinet_stage_bot',
		can_join_groups: true,
		can_read_all_group_messages: false,
		supports_inline_queries: false,
	};
	private nextMessageId = 100;
	private nextUpdateId = 500_000;
	private server?: Server;
	/** The webhook a Telegram Trigger registered, with its secret token. */
	webhook?: { url: string; secret: string; allowedUpdates: string };

	/** `chats` are the chats the bot is a member of: id → type. */
	constructor(
		private readonly token: string,
		private readonly chats: Record<string, 'private' | 'group' | 'supergroup'>,
		private readonly tls: { key: string; cert: string },
	) {}

	async listen(port = 443): Promise<void> {
		this.server = await listenHttps(this.tls, port, (req, res) => this.handle(req, res));
	}

	async stop(): Promise<void> {
		await closeServer(this.server);
	}

	/**
	 * Telegram delivering a text message from a chat to the registered webhook, as the Bot API does:
	 * one update, the secret token in its header. Returns the webhook's HTTP status.
	 */
	async deliver(chatId: string, text: string): Promise<number> {
		if (!this.webhook) throw new Error('no webhook is registered');
		const type = this.chats[chatId] ?? 'private';
		const update = {
			update_id: this.nextUpdateId++,
			message: {
				message_id: this.nextMessageId++,
				from: { id: 4242, is_bot: false, first_name: 'Team member' },
				chat:
					type === 'private'
						? { id: Number(chatId), type }
						: { id: Number(chatId), title: 'Team', type },
				date: Math.floor(Date.now() / 1000),
				text,
			},
		};
		const response = await fetch(this.webhook.url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-telegram-bot-api-secret-token': this.webhook.secret,
			},
			body: JSON.stringify(update),
		});
		await response.text();
		return response.status;
	}

	/** The calls of one Bot API method that the stand-in answered with ok: true. */
	sent(method: string): BotCall[] {
		return this.calls.filter((c) => c.method === method && c.status === 200);
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const body = Buffer.concat(chunks);
		const url = new URL(req.url ?? '/', 'https://api.telegram.org');
		const m = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
		const call: BotCall = {
			method: m?.[2] ?? url.pathname,
			authorized: m?.[1] === this.token,
			fields: Object.fromEntries(url.searchParams),
			status: 200,
		};
		let answer: unknown;
		try {
			if (!m) throw new BotApiError(404, 'Not Found');
			await this.readFields(req, body, call);
			if (!call.authorized) throw new BotApiError(401, 'Unauthorized');
			answer = { ok: true, result: this.method(call) };
		} catch (error) {
			const e = error instanceof BotApiError ? error : new BotApiError(400, String(error));
			call.status = e.status;
			call.description = e.message;
			answer = { ok: false, error_code: e.status, description: e.message };
		}
		this.calls.push(call);
		res.writeHead(call.status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(answer));
	}

	/** The Bot API takes its fields as a query, JSON, a URL-encoded form or multipart. */
	private async readFields(req: IncomingMessage, body: Buffer, call: BotCall): Promise<void> {
		const type = req.headers['content-type'] ?? '';
		if (!body.length) return;
		if (type.startsWith('application/json')) {
			const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
			for (const [key, value] of Object.entries(json))
				call.fields[key] = typeof value === 'string' ? value : JSON.stringify(value);
		} else if (type.startsWith('application/x-www-form-urlencoded')) {
			Object.assign(call.fields, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
		} else if (type.startsWith('multipart/form-data')) {
			const form = await new Request('https://api.telegram.org/', {
				method: 'POST',
				headers: { 'content-type': type },
				body,
			}).formData();
			for (const [key, value] of form.entries()) {
				if (typeof value === 'string') call.fields[key] = value;
				else
					call.document = {
						fileName: value.name,
						mimeType: value.type,
						content: Buffer.from(await value.arrayBuffer()),
					};
			}
		} else {
			throw new BotApiError(400, `Bad Request: unsupported content type ${type}`);
		}
	}

	private method(call: BotCall): unknown {
		switch (call.method) {
			case 'getMe':
				return this.bot;
			case 'setWebhook':
				this.webhook = {
					url: call.fields.url ?? '',
					secret: call.fields.secret_token ?? '',
					allowedUpdates: call.fields.allowed_updates ?? '',
				};
				return true;
			case 'getWebhookInfo':
				return {
					url: this.webhook?.url ?? '',
					has_custom_certificate: false,
					pending_update_count: 0,
				};
			case 'deleteWebhook':
				this.webhook = undefined;
				return true;
			case 'sendMessage': {
				const text = this.parsed(call.fields.text, call.fields.parse_mode, 'message text');
				if (!text.trim()) throw new BotApiError(400, 'Bad Request: message text is empty');
				if ([...text].length > MAX_TEXT)
					throw new BotApiError(400, 'Bad Request: message is too long');
				return { ...this.message(call), text };
			}
			case 'sendDocument': {
				if (!call.document)
					throw new BotApiError(400, 'Bad Request: there is no document in the request');
				const caption = this.parsed(call.fields.caption, call.fields.parse_mode, 'caption');
				if ([...caption].length > MAX_CAPTION)
					throw new BotApiError(400, 'Bad Request: message caption is too long');
				const { fileName, mimeType, content } = call.document;
				return {
					...this.message(call),
					document: {
						file_name: fileName,
						mime_type: mimeType,
						file_id: `BQACAgIAAxkBAAI${call.messageId}`,
						file_unique_id: `AgAD${call.messageId}`,
						file_size: content.length,
					},
					...(caption ? { caption } : {}),
				};
			}
			default:
				throw new BotApiError(404, 'Not Found');
		}
	}

	/** The text as Telegram shows it, or the Bot API's refusal of its markup. */
	private parsed(text: string | undefined, parseMode: string | undefined, what: string): string {
		try {
			return plainText(text ?? '', parseMode);
		} catch (error) {
			throw new BotApiError(
				400,
				`Bad Request: can't parse entities in ${what}: ${(error as Error).message}`,
			);
		}
	}

	/** The Message every send answers with: its id, the bot, the chat and the time. */
	private message(call: BotCall): Record<string, unknown> {
		const chatId = call.fields.chat_id ?? '';
		const type = this.chats[chatId];
		if (!type) throw new BotApiError(400, 'Bad Request: chat not found');
		call.messageId = this.nextMessageId++;
		const chat =
			type === 'private'
				? { id: Number(chatId), first_name: 'Ad', username: 'ad_owner', type }
				: { id: Number(chatId), title: 'Ad alerts', type };
		return {
			message_id: call.messageId,
			from: {
				id: this.bot.id,
				is_bot: true,
				first_name: this.bot.first_name,
				username: this.bot.username,
			},
			chat,
			date: Math.floor(Date.now() / 1000),
		};
	}
}
