/**
 * The text a Telegram message shows, from what a bot sent and its parse mode, with the Bot API's
 * rules for HTML: only its tags (b, strong, i, em, u, ins, s, strike, del, a, code, pre, span,
 * tg-spoiler, tg-emoji, blockquote), each closed in order, and every other `<`, `>` and `&` written
 * as `&lt;`, `&gt;` and `&amp;`. A breach throws with the Bot API's wording, as Telegram refuses
 * such a message ("can't parse entities"), so a recipe that forgets to escape a name fails here as
 * it would for a user.
 */

const HTML_TAGS = new Set(
	'b strong i em u ins s strike del a code pre span tg-spoiler tg-emoji blockquote'.split(' '),
);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

function html(text: string): string {
	const open: string[] = [];
	let out = '';
	let i = 0;
	const offset = () => Buffer.byteLength(text.slice(0, i));
	while (i < text.length) {
		const c = text[i];
		if (c === '<') {
			const end = text.indexOf('>', i);
			const tag = /^<(\/?)([a-z-]+)(\s[^>]*)?>$/i.exec(end < 0 ? '' : text.slice(i, end + 1));
			if (!tag || !HTML_TAGS.has(tag[2].toLowerCase()))
				throw new Error(
					`Unsupported start tag "${/^<\/?([^\s>]*)/.exec(text.slice(i))?.[1] ?? ''}" at byte offset ${offset()}`,
				);
			const name = tag[2].toLowerCase();
			if (tag[1]) {
				if (open.pop() !== name) throw new Error(`Unexpected end tag at byte offset ${offset()}`);
			} else open.push(name);
			i = end + 1;
		} else if (c === '>') {
			throw new Error(`Unexpected end tag at byte offset ${offset()}`);
		} else if (c === '&') {
			const entity = /^&(#x[0-9a-f]+|#\d+|[a-z]+);/i.exec(text.slice(i));
			if (!entity) {
				out += c;
				i++;
				continue;
			}
			const name = entity[1];
			const value = name.startsWith('#x')
				? String.fromCodePoint(parseInt(name.slice(2), 16))
				: name.startsWith('#')
					? String.fromCodePoint(Number(name.slice(1)))
					: NAMED[name.toLowerCase()];
			if (value === undefined)
				throw new Error(`Unsupported HTML entity "&${name};" at byte offset ${offset()}`);
			out += value;
			i += entity[0].length;
		} else {
			out += c;
			i++;
		}
	}
	if (open.length)
		throw new Error(`Can't find end tag corresponding to start tag "${open[open.length - 1]}"`);
	return out;
}

/** Legacy Markdown: `*bold*`, `_italic_`, `` `code` `` and `[text](url)`, each closed. */
function markdown(text: string): string {
	let out = '';
	let i = 0;
	while (i < text.length) {
		const c = text[i];
		if (c === '*' || c === '_' || c === '`') {
			const end = text.indexOf(c, i + 1);
			if (end < 0)
				throw new Error(
					`Can't find end of the entity starting at byte offset ${Buffer.byteLength(text.slice(0, i))}`,
				);
			out += text.slice(i + 1, end);
			i = end + 1;
		} else if (c === '[') {
			const link = /^\[([^\]]*)\]\(([^)]*)\)/.exec(text.slice(i));
			out += link ? link[1] : c;
			i += link ? link[0].length : 1;
		} else {
			out += c;
			i++;
		}
	}
	return out;
}

export function plainText(text: string, parseMode: string | undefined): string {
	if (!parseMode) return text;
	if (parseMode === 'HTML') return html(text);
	if (parseMode === 'Markdown') return markdown(text);
	if (parseMode === 'MarkdownV2') return markdown(text.replace(/\\(.)/g, '$1'));
	throw new Error(`Unsupported parse mode "${parseMode}"`);
}
