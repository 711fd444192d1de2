export const CURRENCIES = ['EUR', 'TON', 'USD', 'RUB', 'USDT', 'STAR'] as const;

export type Currency = (typeof CURRENCIES)[number];

/** Fixed exchange rates: units of each currency per 1 EUR. */
export const EUR_RATES: Readonly<Record<Currency, number>> = {
	EUR: 1,
	TON: 0.2,
	USD: 1.08,
	RUB: 98.5,
	USDT: 1.08,
	STAR: 77,
};

export function isCurrency(value: unknown): value is Currency {
	return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

export function currencyIndex(currency: Currency): number {
	return CURRENCIES.indexOf(currency);
}

/** Converts an amount in minor units (hundredths) between currencies, unrounded. */
export function convertMinor(minor: number, from: Currency, to: Currency): number {
	return from === to ? minor : (minor * EUR_RATES[to]) / EUR_RATES[from];
}
