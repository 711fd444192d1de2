/** Local bindings: global lookups are slow inside vm contexts (jest), and these run per slot. */
const { floor, imul } = Math;

/** Small seeded PRNG (mulberry32): the same seed always yields the same sequence. */
export function mulberry32(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = imul(t ^ (t >>> 15), t | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** 32-bit avalanche mix (lowbias32): derives a further independent-looking hash from one. */
export function avalanche(value: number): number {
	let h = value;
	h ^= h >>> 16;
	h = imul(h, 0x7feb352d);
	h ^= h >>> 15;
	h = imul(h, 0x846ca68b);
	h ^= h >>> 16;
	return h >>> 0;
}

/** Stateless 32-bit hash of up to four integers: metrics are a pure function of (seed, ad, time). */
export function hash32(a: number, b: number, c = 0, d = 0): number {
	let h = avalanche(a ^ 0x9e3779b9);
	h = avalanche(h ^ b);
	h = avalanche(h ^ c);
	return avalanche(h ^ d);
}

/** A hash as a fraction in [0, 1). */
export function fraction(hash: number): number {
	return hash / 4294967296;
}

/** Convenience wrapper for seeding: integers, picks and chances from one stream. */
export class SeededRandom {
	private readonly next: () => number;

	constructor(seed: number) {
		this.next = mulberry32(seed);
	}

	float(): number {
		return this.next();
	}

	int(min: number, max: number): number {
		return min + floor(this.next() * (max - min + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[floor(this.next() * items.length)];
	}

	sample<T>(items: readonly T[], count: number): T[] {
		const pool = [...items];
		const out: T[] = [];
		while (out.length < count && pool.length > 0) {
			out.push(pool.splice(floor(this.next() * pool.length), 1)[0]);
		}
		return out;
	}
}
