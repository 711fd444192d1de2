/**
 * An API error answered as DRF-like JSON: `{ detail, errors? }`, plus any `extra` fields (the real
 * service's sign-in answers also carry `status_code`).
 */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly detail: string,
		readonly errors?: Record<string, string[]>,
		readonly headers: Record<string, string> = {},
		readonly extra: Record<string, unknown> = {},
	) {
		super(detail);
	}

	body(): Record<string, unknown> {
		const base = this.errors
			? { detail: this.detail, errors: this.errors }
			: { detail: this.detail };
		return { ...base, ...this.extra };
	}
}

/** Collects field rule violations and turns them into one 400 whose detail names each field. */
export class FieldErrors {
	private readonly byField: Record<string, string[]> = {};

	add(field: string, rule: string): void {
		(this.byField[field] ??= []).push(rule);
	}

	has(field?: string): boolean {
		return field === undefined ? Object.keys(this.byField).length > 0 : field in this.byField;
	}

	throwIfAny(status = 400): void {
		if (!this.has()) return;
		const detail = Object.entries(this.byField)
			.map(([field, rules]) => `${field}: ${rules.join('; ')}`)
			.join(' | ');
		throw new ApiError(status, detail, this.byField);
	}
}

export function fieldError(field: string, rule: string, status = 400): ApiError {
	return new ApiError(status, `${field}: ${rule}`, { [field]: [rule] });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
