/**
 * When two ads count as the same ad for Skip Identical: as a person reads them, not byte for byte.
 * A sheet cell with a trailing space, a text pasted with Windows line ends, or a promote URL that the
 * API keeps with its host in another case or with a trailing slash would otherwise make every
 * scheduled run create the same ad again.
 */

/** A title or text as read: surrounding whitespace dropped and every line end made `\n`. */
export function readableText(value: unknown): string {
	if (typeof value !== 'string') return '';
	return value.replace(/\r\n?/g, '\n').trim();
}

/**
 * A promote URL as read: surrounding whitespace dropped, the scheme and host in lower case (they are
 * case-blind on the web) and no trailing slash on its path. The rest of the path, the query and the
 * fragment keep their case: a server may tell `/Promo` from `/promo`.
 */
export function readableUrl(value: unknown): string {
	const url = readableText(value);
	const parts = /^([a-z][a-z\d+.-]*:\/\/)?([^/?#]*)([^?#]*)(.*)$/is.exec(url);
	if (!parts) return url;
	const [, scheme = '', host, path, rest] = parts;
	return `${scheme.toLowerCase()}${host.toLowerCase()}${path.replace(/\/+$/, '')}${rest}`;
}

/** The fields Skip Identical compares, in the form it compares them. */
export function identityOf(ad: {
	campaign_id?: unknown;
	title?: unknown;
	promote_url?: unknown;
	text?: unknown;
}): string {
	return JSON.stringify([
		String(ad.campaign_id ?? ''),
		readableText(ad.title),
		readableUrl(ad.promote_url),
		readableText(ad.text),
	]);
}
