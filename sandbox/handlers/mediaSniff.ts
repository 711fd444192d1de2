/** Content type from the leading bytes; null when the file is not a supported image or video. */
export function sniffMediaType(bytes: Buffer): string | null {
	const starts = (signature: number[], offset = 0) =>
		bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
	const ascii = (text: string, offset = 0) =>
		bytes.toString('latin1', offset, offset + text.length) === text;
	if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
	if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
	if (ascii('GIF87a') || ascii('GIF89a')) return 'image/gif';
	if (ascii('RIFF') && ascii('WEBP', 8)) return 'image/webp';
	if (ascii('ftyp', 4) && !ascii('qt  ', 8)) return 'video/mp4';
	return null;
}
