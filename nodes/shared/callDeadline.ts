import { NodeConnectionTypes, sleep, type INode, type NodeConnectionType } from 'n8n-workflow';

/**
 * A tool call's one deadline: 20 s from its start, every wait inside it included (the rate limit's
 * pacing, a path blocked after a 429, a Retry-After and its retries, sign-in and token renewal, the
 * hold and the claim of two runs at once, the pages of a Return All). An MCP client gives up on a
 * request after 60 s by default, and the answer must still pass through n8n and the model: 20 s
 * leaves room for both, and for the requests themselves. A wait that would end past the deadline
 * is not taken: the call answers at once with when to try again, and sends nothing more.
 */
export const TOOL_CALL_DEADLINE_MS = 20_000;

/** A request a call sent: its method and literal path, and whether the API refused it with 429. */
interface SentRequest {
	method: string;
	path: string;
	refused429?: boolean;
}

/** One tool call's deadline, and what it sent so far. */
export interface CallDeadline {
	/** When the call started (Date.now() time). */
	readonly startedAt: number;
	/** No wait of the call ends past this (Date.now() time). */
	readonly endsAt: number;
	/** The requests the call sent, oldest first. */
	readonly sent: SentRequest[];
}

/** A deadline a wait keeps to: a call's, or the earliest of the calls a shared step waits for. */
export interface Within {
	readonly endsAt: number;
}

/** What n8n hands the node, as far as finding the call goes. */
interface CallContext {
	getNode(): INode;
	getInputData?: (inputIndex?: number, connectionType?: NodeConnectionType) => unknown;
}

/**
 * Whether the node runs as a tool: for the AI Agent, for the MCP Server Trigger calling it
 * directly, or for the agent's engine requests. n8n gives every node that is usableAsTool a tool
 * variant whose type name ends in `Tool` (e.g. `n8n-nodes-ad-cabinet.adCabinetAdsTool`), and a
 * workflow holds that type for a node connected as a tool; n8n's own `@tool` display option reads
 * the same suffix.
 */
export function isToolCall(ctx: { getNode(): INode }): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/** The deadlines of calls under way, by the object that names the call (see callKey). */
const calls = new WeakMap<object, CallDeadline>();

/**
 * The object that names one call: the tool's input item. n8n runs each tool call as one run of the
 * node with one input item made for it (the model's arguments): the MCP Server Trigger and the
 * AI Agent of n8n 1.x build a new item for every invocation, and the AI Agent of n8n 2.x runs every
 * tool call as a node run of its own. The run's context and every per-item and per-page context
 * n8n makes from it hand out that same item, so a Return All's pages and a read before a write share
 * one deadline, while two invocations in one execution have two. Where the item cannot be read the
 * same twice (n8n hands out a fresh empty one), the context itself names the call.
 */
function callKey(ctx: CallContext): object {
	for (const type of [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool]) {
		try {
			const first = itemOf(ctx.getInputData?.(0, type));
			if (first !== undefined && first === itemOf(ctx.getInputData?.(0, type))) return first;
		} catch {
			// No input of this type.
		}
	}
	return ctx;
}

function itemOf(data: unknown): object | undefined {
	const item: unknown = Array.isArray(data) ? data[0] : data;
	return item !== null && typeof item === 'object' ? item : undefined;
}

/**
 * Marks the start of a call: called when n8n runs the node (its `execute`). A call first seen later
 * (a context that did not pass there) starts when it is first seen.
 */
export function beginCall(ctx: CallContext, now = Date.now()): void {
	if (!isToolCall(ctx)) return;
	const key = callKey(ctx);
	if (!calls.has(key))
		calls.set(key, { startedAt: now, endsAt: now + TOOL_CALL_DEADLINE_MS, sent: [] });
}

/** The deadline of the tool call this context belongs to; undefined for a workflow's node. */
export function callDeadline(ctx: CallContext): CallDeadline | undefined {
	if (!isToolCall(ctx)) return undefined;
	const key = callKey(ctx);
	beginCall(ctx);
	return calls.get(key);
}

/**
 * Whether a wait of `ms` starting now ends by the deadline: always without one, and for no wait at
 * all (a request whose own answer took the call past its deadline still ends its work).
 */
export function fitsWithin(within: Within | undefined, ms: number, now = Date.now()): boolean {
	return within === undefined || ms <= 0 || now + ms <= within.endsAt;
}

/**
 * The one way a wait is taken. Waits `ms` (or until `early` settles, if that comes first). With a
 * deadline, a wait that would end past it is not taken: `tooLong(ms)` is thrown at once instead,
 * so the caller answers now and sends nothing more.
 */
export async function waitWithinCall(
	within: Within | undefined,
	ms: number,
	tooLong: (waitMs: number) => Error,
	early?: Promise<unknown>,
): Promise<void> {
	if (ms <= 0) return;
	if (!fitsWithin(within, ms)) throw tooLong(ms);
	await (early ? Promise.race([early, sleep(ms)]) : sleep(ms));
}

/** The call sent a request (its method and literal path); returns it, to mark a 429 on it. */
export function noteSent(
	call: CallDeadline | undefined,
	method: string,
	path: string,
): SentRequest | undefined {
	if (!call) return undefined;
	const request = { method: method.toUpperCase(), path };
	call.sent.push(request);
	return request;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What the call sent before it stopped, and whether repeating it is safe, in one or two sentences:
 * nothing; only reads or requests the API refused with 429 (nothing changed); or a write the API
 * performed, named so that the model looks before repeating the call.
 */
export function sentWords(call: CallDeadline | undefined): string {
	const sent = call?.sent ?? [];
	if (sent.length === 0) return 'Nothing was sent for this call, so trying again then is safe.';
	const list = sent
		.map((r) => `${r.method} ${r.path}${r.refused429 ? ' (answered 429, not performed)' : ''}`)
		.join(', ');
	const writes = sent.filter((r) => !READS.has(r.method) && !r.refused429);
	if (writes.length === 0)
		return `This call sent ${list} and nothing more; none of it changed anything, so trying again then is safe.`;
	return `This call sent ${list} and nothing more; the API performed ${writes.map((r) => `${r.method} ${r.path}`).join(', ')}, so look at the result before repeating the call.`;
}

/** The deadline in words, for the end of a message. */
export function deadlineWords(): string {
	return `(A tool call answers within ${TOOL_CALL_DEADLINE_MS / 1000} s of its start, every wait inside it included, so that the AI client does not give up first.)`;
}

/** "try again in N s": N whole seconds, rounded up so that the same call then goes on. */
export function tryAgainWords(waitMs: number): string {
	return `try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s`;
}

/**
 * The message of a tool call that stops before a wait that would pass its deadline, for waits that
 * are not the rate limit's (another execution changing the same ad, for one): `reason` states what
 * the call was waiting for, in words a model acts on; then when to try again, what the call sent
 * and whether repeating it is safe, and the deadline.
 */
export function deadlineMessage(
	call: CallDeadline | undefined,
	reason: string,
	waitMs: number,
): string {
	return `${reason}: ${tryAgainWords(waitMs)}. ${sentWords(call)} ${deadlineWords()}`;
}
