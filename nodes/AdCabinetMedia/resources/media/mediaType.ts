/** The media types an ad accepts, recognised from a file's first bytes (a declared type can lie). */
export const MEDIA_TYPES_TEXT = 'a JPEG, PNG, GIF or WebP image or an MP4 video';

const EXTENSIONS: Record<string, string> = {
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/gif': 'gif',
	'image/webp': 'webp',
	'video/mp4': 'mp4',
};

export function extensionOf(mediaType: string): string {
	return EXTENSIONS[mediaType] ?? 'bin';
}

/** The media type of the bytes, or undefined when they are none of MEDIA_TYPES_TEXT. */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
	const starts = (signature: number[], offset = 0) =>
		bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
	const ascii = (text: string, offset = 0) =>
		starts(
			[...text].map((c) => c.charCodeAt(0)),
			offset,
		);
	if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
	if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
	if (ascii('GIF87a') || ascii('GIF89a')) return 'image/gif';
	if (ascii('RIFF') && ascii('WEBP', 8)) return 'image/webp';
	if (ascii('ftyp', 4) && !ascii('qt  ', 8)) return 'video/mp4';
	return undefined;
}
