/** Local bindings: global lookups are slow inside vm contexts (jest), and these run per slot. */
const { floor, max, round } = Math;

/**
 * Appends ASCII text and numbers straight into a Buffer, so serializing 100,000 rows creates no
 * intermediate strings.
 */
export class ByteWriter {
	private buffer: Buffer;
	private position = 0;
	private readonly digits = new Uint8Array(24);

	constructor(capacity: number) {
		this.buffer = Buffer.allocUnsafe(max(64, capacity));
	}

	get length(): number {
		return this.position;
	}

	private ensure(extra: number): void {
		if (this.position + extra <= this.buffer.length) return;
		const next = Buffer.allocUnsafe(max(this.buffer.length * 2, this.position + extra));
		next.set(this.buffer.subarray(0, this.position));
		this.buffer = next;
	}

	/** Short constant byte sequences (keys, punctuation). */
	constant(bytes: Uint8Array): void {
		this.ensure(bytes.length);
		const buffer = this.buffer;
		let at = this.position;
		for (let i = 0; i < bytes.length; i++) buffer[at++] = bytes[i];
		this.position = at;
	}

	/** Longer pre-encoded chunks. */
	chunk(bytes: Uint8Array): void {
		this.ensure(bytes.length);
		this.buffer.set(bytes, this.position);
		this.position += bytes.length;
	}

	byte(value: number): void {
		this.ensure(1);
		this.buffer[this.position++] = value;
	}

	/** A non-negative integer (exact up to 2^53). */
	unsigned(value: number): void {
		let n = value;
		let count = 0;
		do {
			const next = floor(n / 10);
			this.digits[count++] = 48 + (n - next * 10);
			n = next;
		} while (n > 0);
		this.ensure(count);
		while (count > 0) this.buffer[this.position++] = this.digits[--count];
	}

	/** Integer hundredths as a two-place decimal: 1234 -> 12.34 (same as formatMinor). */
	hundredths(value: number): void {
		let rounded = round(value);
		if (rounded < 0) {
			this.byte(45);
			rounded = -rounded;
		}
		const cents = rounded % 100;
		this.unsigned((rounded - cents) / 100);
		this.ensure(3);
		this.buffer[this.position++] = 46;
		this.buffer[this.position++] = 48 + floor(cents / 10);
		this.buffer[this.position++] = 48 + (cents % 10);
	}

	result(): Buffer {
		return this.buffer.subarray(0, this.position);
	}
}

export function ascii(text: string): Uint8Array {
	return Buffer.from(text, 'latin1');
}
