/**
 * Tells a public internet address from one inside a private network, without any lookup: the
 * IANA special-purpose registries for IPv4 and IPv6, plus IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, NAT64, 6to4), judged by the IPv4 address they carry. Pure: no DNS, no sockets.
 */

/** Why an address is not public, in words that complete "… is …". */
export type AddressKind =
	| 'the unspecified address'
	| 'a loopback address'
	| 'a private network address'
	| 'a link-local address'
	| 'a multicast address'
	| 'a reserved address';

const UNSPECIFIED: AddressKind = 'the unspecified address';
const LOOPBACK: AddressKind = 'a loopback address';
const PRIVATE: AddressKind = 'a private network address';
const LINK_LOCAL: AddressKind = 'a link-local address';
const MULTICAST: AddressKind = 'a multicast address';
const RESERVED: AddressKind = 'a reserved address';

/** IPv4 ranges that are not the public internet: [first octets, prefix length, kind]. */
const IPV4_RANGES: Array<[number[], number, AddressKind]> = [
	[[0], 8, UNSPECIFIED], // "this network", 0.0.0.0
	[[10], 8, PRIVATE],
	[[100, 64], 10, PRIVATE], // shared address space (carrier-grade NAT, many VPNs)
	[[127], 8, LOOPBACK],
	[[169, 254], 16, LINK_LOCAL], // cloud metadata services live here
	[[172, 16], 12, PRIVATE],
	[[192, 0, 0], 24, RESERVED], // IETF protocol assignments
	[[192, 0, 2], 24, RESERVED], // documentation
	[[192, 88, 99], 24, RESERVED], // former 6to4 relay anycast
	[[192, 168], 16, PRIVATE],
	[[198, 18], 15, RESERVED], // benchmarking
	[[198, 51, 100], 24, RESERVED], // documentation
	[[203, 0, 113], 24, RESERVED], // documentation
	[[224], 4, MULTICAST],
	[[240], 4, RESERVED], // future use and 255.255.255.255 broadcast
];

function ipv4Value(octets: number[]): number {
	return ((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3]) >>> 0;
}

function ipv4Kind(octets: number[]): AddressKind | undefined {
	const value = ipv4Value(octets);
	for (const [start, prefix, kind] of IPV4_RANGES) {
		const base = ipv4Value([...start, 0, 0, 0, 0].slice(0, 4));
		const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
		if ((value & mask) >>> 0 === base) return kind;
	}
	return undefined;
}

/** The four octets of a dotted IPv4 address (four decimal numbers 0-255), or undefined. */
function parseIpv4(text: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
	if (!match) return undefined;
	const octets = match.slice(1).map(Number);
	return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 address (with `::`, a trailing dotted IPv4, a zone), or undefined. */
function parseIpv6(text: string): number[] | undefined {
	let rest = text.replace(/^\[|\]$/g, '');
	const zone = rest.indexOf('%');
	if (zone >= 0) rest = rest.slice(0, zone);
	if (!rest.includes(':')) return undefined;
	const lastColon = rest.lastIndexOf(':');
	const last = rest.slice(lastColon + 1);
	if (last.includes('.')) {
		// A trailing dotted IPv4 address stands for the last two groups.
		const v4 = parseIpv4(last);
		if (!v4) return undefined;
		const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
		rest = `${rest.slice(0, lastColon + 1)}${hex(v4[0], v4[1])}:${hex(v4[2], v4[3])}`;
	}
	const halves = rest.split('::');
	if (halves.length > 2) return undefined;
	const groupsOf = (part: string): number[] | undefined => {
		if (part === '') return [];
		const groups: number[] = [];
		for (const group of part.split(':')) {
			if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
			groups.push(parseInt(group, 16));
		}
		return groups;
	};
	const head = groupsOf(halves[0]);
	const end = halves.length === 2 ? groupsOf(halves[1]) : [];
	if (!head || !end) return undefined;
	const given = head.length + end.length;
	if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
	return [...head, ...new Array<number>(8 - given).fill(0), ...end];
}

/** Whether the first `bits` bits of `groups` equal those of `prefix` (groups of 16 bits). */
function inPrefix(groups: number[], prefix: number[], bits: number): boolean {
	for (let i = 0; bits > 0; i++, bits -= 16) {
		const take = Math.min(16, bits);
		const mask = (0xffff << (16 - take)) & 0xffff;
		if ((groups[i] & mask) !== ((prefix[i] ?? 0) & mask)) return false;
	}
	return true;
}

function embeddedIpv4(high: number, low: number): number[] {
	return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

function ipv6Kind(groups: number[]): AddressKind | undefined {
	if (groups.every((group) => group === 0)) return UNSPECIFIED;
	if (inPrefix(groups, [0, 0, 0, 0, 0, 0, 0, 1], 128)) return LOOPBACK;
	// IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address decides.
	if (inPrefix(groups, [0, 0, 0, 0, 0, 0xffff], 96) || inPrefix(groups, [0x64, 0xff9b], 96)) {
		return ipv4Kind(embeddedIpv4(groups[6], groups[7]));
	}
	if (inPrefix(groups, [0x64, 0xff9b, 1], 48)) return PRIVATE; // local-use NAT64
	// 6to4 (2002:a.b.c.d::/48): the IPv4 address decides.
	if (inPrefix(groups, [0x2002], 16)) return ipv4Kind(embeddedIpv4(groups[1], groups[2]));
	if (inPrefix(groups, [0xfe80], 10)) return LINK_LOCAL;
	if (inPrefix(groups, [0xfc00], 7)) return PRIVATE; // unique local
	if (inPrefix(groups, [0xfec0], 10)) return PRIVATE; // former site-local
	if (inPrefix(groups, [0xff00], 8)) return MULTICAST;
	// Only 2000::/3 is global unicast; within it, protocol assignments (Teredo among them) and
	// the documentation ranges are not reachable servers.
	if (!inPrefix(groups, [0x2000], 3)) return RESERVED;
	if (inPrefix(groups, [0x2001, 0], 23)) return RESERVED;
	if (inPrefix(groups, [0x2001, 0x0db8], 32)) return RESERVED;
	if (inPrefix(groups, [0x3fff], 20)) return RESERVED;
	return undefined;
}

/** What kind of non-public address `address` is (IPv4 or IPv6 text), or undefined when it is public or not an IP address. */
export function nonPublicKind(address: string): AddressKind | undefined {
	const v4 = parseIpv4(address);
	if (v4) return ipv4Kind(v4);
	const v6 = parseIpv6(address);
	return v6 ? ipv6Kind(v6) : undefined;
}

/** Whether `host` (a URL's hostname) is an IP address rather than a name. */
export function isIpAddress(host: string): boolean {
	return parseIpv4(host) !== undefined || parseIpv6(host) !== undefined;
}

/** Names that always mean this machine (RFC 6761), whatever DNS says. */
export function isLocalhostName(host: string): boolean {
	const name = host.toLowerCase().replace(/\.$/, '');
	return name === 'localhost' || name.endsWith('.localhost');
}
